#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ember::sql {

/// A small line editor for the interactive shell: on a terminal it edits in raw mode (arrows,
/// Home/End, Backspace/Delete, Ctrl-A/E/K/U/W, history with Up/Down); otherwise it reads plain
/// lines. History is kept in memory and, when a file is given, loaded from and appended to it.
class LineEditor {
 public:
  explicit LineEditor(std::string history_file = "");

  enum class Status { kLine, kInterrupted, kEnd };
  struct Result {
    Status status;
    std::string line;
  };

  /// Reads one line after printing `prompt` (on a terminal). kInterrupted is Ctrl-C;
  /// kEnd is end of input (Ctrl-D on an empty line).
  Result read_line(const std::string& prompt);
  /// Adds an entry (a whole statement) to the history.
  void add_history(const std::string& entry);
  bool interactive() const { return interactive_; }

 private:
  Result read_raw(const std::string& prompt);

  bool interactive_;
  std::string history_file_;
  std::vector<std::string> history_;
};

}  // namespace ember::sql
