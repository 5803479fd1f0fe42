#include "sql/line_editor.h"

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

namespace ember::sql {
namespace {

/// Puts the terminal in raw mode for the life of the object.
class RawMode {
 public:
  RawMode() {
    ok_ = tcgetattr(STDIN_FILENO, &saved_) == 0;
    if (!ok_) return;
    termios raw = saved_;
    raw.c_iflag &= static_cast<tcflag_t>(~(BRKINT | ICRNL | INPCK | ISTRIP | IXON));
    raw.c_cflag |= CS8;
    raw.c_lflag &= static_cast<tcflag_t>(~(ECHO | ICANON | IEXTEN | ISIG));
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    ok_ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0;
  }
  ~RawMode() {
    if (ok_) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_);
  }
  bool ok() const { return ok_; }

 private:
  termios saved_{};
  bool ok_ = false;
};

bool read_byte(char* c) { return ::read(STDIN_FILENO, c, 1) == 1; }

void write_out(const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = ::write(STDOUT_FILENO, s.data() + done, s.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t chars_in(const std::string& s, size_t from, size_t to) {
  size_t n = 0;
  for (size_t i = from; i < to; ++i)
    if (!is_continuation(s[i])) ++n;
  return n;
}

}  // namespace

LineEditor::LineEditor(std::string history_file)
    : interactive_(isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)),
      history_file_(std::move(history_file)) {
  if (history_file_.empty()) return;
  std::ifstream in(history_file_);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) history_.push_back(line);
}

void LineEditor::add_history(const std::string& entry) {
  std::string e = entry;
  for (auto& c : e)
    if (c == '\n' || c == '\r') c = ' ';
  if (e.empty() || (!history_.empty() && history_.back() == e)) return;
  history_.push_back(e);
  if (!history_file_.empty()) {
    std::ofstream out(history_file_, std::ios::app);
    out << e << '\n';
  }
}

LineEditor::Result LineEditor::read_line(const std::string& prompt) {
  if (interactive_) return read_raw(prompt);
  std::string line;
  if (!std::getline(std::cin, line)) return {Status::kEnd, ""};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return {Status::kLine, line};
}

LineEditor::Result LineEditor::read_raw(const std::string& prompt) {
  RawMode raw;
  if (!raw.ok()) {
    interactive_ = false;
    std::cout << prompt << std::flush;
    return read_line(prompt);
  }
  std::string buf;
  size_t cursor = 0;              // byte offset in buf
  size_t hist = history_.size();  // history position; == size() is the line being edited
  std::string editing;            // the line being edited while browsing history
  auto refresh = [&]() {
    std::string s = "\r" + prompt + buf + "\x1b[K";
    size_t after = chars_in(buf, cursor, buf.size());
    if (after > 0) s += "\x1b[" + std::to_string(after) + "D";
    write_out(s);
  };
  auto left = [&]() {
    if (cursor == 0) return;
    do --cursor;
    while (cursor > 0 && is_continuation(buf[cursor]));
  };
  auto right = [&]() {
    if (cursor >= buf.size()) return;
    do ++cursor;
    while (cursor < buf.size() && is_continuation(buf[cursor]));
  };
  auto recall = [&](size_t to) {
    if (hist == history_.size()) editing = buf;
    hist = to;
    buf = hist == history_.size() ? editing : history_[hist];
    cursor = buf.size();
  };
  refresh();
  while (true) {
    char c;
    if (!read_byte(&c)) {
      write_out("\r\n");
      return {Status::kEnd, ""};
    }
    switch (c) {
      case '\r':
      case '\n':
        write_out("\r\n");
        return {Status::kLine, buf};
      case 3:  // Ctrl-C
        write_out("^C\r\n");
        return {Status::kInterrupted, ""};
      case 4:  // Ctrl-D
        if (buf.empty()) {
          write_out("\r\n");
          return {Status::kEnd, ""};
        }
        if (cursor < buf.size()) {
          size_t end = cursor;
          do ++end;
          while (end < buf.size() && is_continuation(buf[end]));
          buf.erase(cursor, end - cursor);
        }
        break;
      case 127:
      case 8: {  // Backspace
        size_t end = cursor;
        left();
        buf.erase(cursor, end - cursor);
        break;
      }
      case 1:
        cursor = 0;
        break;  // Ctrl-A
      case 5:
        cursor = buf.size();
        break;  // Ctrl-E
      case 2:
        left();
        break;  // Ctrl-B
      case 6:
        right();
        break;  // Ctrl-F
      case 11:
        buf.erase(cursor);
        break;  // Ctrl-K
      case 21:  // Ctrl-U
        buf.erase(0, cursor);
        cursor = 0;
        break;
      case 23: {  // Ctrl-W: the word before the cursor
        size_t end = cursor;
        while (cursor > 0 && buf[cursor - 1] == ' ') --cursor;
        while (cursor > 0 && buf[cursor - 1] != ' ') --cursor;
        buf.erase(cursor, end - cursor);
        break;
      }
      case 12:
        write_out("\x1b[H\x1b[2J");
        break;  // Ctrl-L
      case 16:  // Ctrl-P
        if (hist > 0) recall(hist - 1);
        break;
      case 14:  // Ctrl-N
        if (hist < history_.size()) recall(hist + 1);
        break;
      case 27: {  // escape sequences
        char a, b;
        if (!read_byte(&a) || !read_byte(&b)) break;
        if (a != '[' && a != 'O') break;
        if (b >= '0' && b <= '9') {
          char t;
          if (!read_byte(&t)) break;
          if (t == '~') {
            if (b == '3' && cursor < buf.size()) {  // Delete
              size_t end = cursor;
              do ++end;
              while (end < buf.size() && is_continuation(buf[end]));
              buf.erase(cursor, end - cursor);
            } else if (b == '1' || b == '7') {
              cursor = 0;
            } else if (b == '4' || b == '8') {
              cursor = buf.size();
            }
          }
          break;
        }
        switch (b) {
          case 'A':
            if (hist > 0) recall(hist - 1);
            break;
          case 'B':
            if (hist < history_.size()) recall(hist + 1);
            break;
          case 'C':
            right();
            break;
          case 'D':
            left();
            break;
          case 'H':
            cursor = 0;
            break;
          case 'F':
            cursor = buf.size();
            break;
          default:
            break;
        }
        break;
      }
      default:
        if (static_cast<unsigned char>(c) >= 32 || c == '\t') {
          buf.insert(cursor, 1, c == '\t' ? ' ' : c);
          ++cursor;
        }
        break;
    }
    refresh();
  }
}

}  // namespace ember::sql
