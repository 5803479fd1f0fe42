// The SQL lexer: text → tokens. Keywords are not told apart here: Spark reserves almost none
// of them by default, so the parser decides from context whether a word is a keyword.

#include "sql/lexer.h"

#include <cctype>

#include "common/utf8.h"
#include "sql/parse_error.h"

namespace ember::sql {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
char upper_char(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

// Operators, longest first so that the first match is the longest.
constexpr std::string_view kOperators[] = {
    "<=>", "<>", "!=", "<=", ">=", "==", "||", "::", "->", "=>", "&&", "(",
    ")",   "[",  "]",  "{",  "}",  ",",  ".",  ";",  "+",  "-",  "*",  "/",
    "%",   "~",  "&",  "|",  "^",  "=",  "<",  ">",  "!",  ":",  "$",
};

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : s_(sql) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skip_space_and_comments();
      Token t;
      t.begin = static_cast<int>(pos_);
      t.line = line_;
      t.column = column_;
      if (pos_ >= s_.size()) {
        t.kind = TokenKind::kEnd;
        t.stop = t.begin - 1;
        out.push_back(std::move(t));
        return out;
      }
      lex_one(t);
      t.stop = static_cast<int>(pos_) - 1;
      if (t.text.empty()) t.text = std::string(s_.substr(t.begin, pos_ - t.begin));
      out.push_back(std::move(t));
    }
  }

 private:
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  void advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < s_.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s_[pos_++]);
      if (c == '\n') {
        ++line_;
        column_ = 0;
      } else if ((c & 0xC0) != 0x80) {
        ++column_;  // count characters, not UTF-8 continuation bytes
      }
    }
  }

  void skip_space_and_comments() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '-' && at(pos_ + 1) == '-') {
        while (pos_ < s_.size() && s_[pos_] != '\n') advance();
      } else if (c == '/' && at(pos_ + 1) == '*' && at(pos_ + 2) != '+') {
        skip_bracketed_comment();
      } else {
        return;
      }
    }
  }

  // Bracketed comments nest, as in Spark.
  void skip_bracketed_comment() {
    int depth = 0;
    while (pos_ < s_.size()) {
      if (s_[pos_] == '/' && at(pos_ + 1) == '*') {
        ++depth;
        advance(2);
      } else if (s_[pos_] == '*' && at(pos_ + 1) == '/') {
        advance(2);
        if (--depth == 0) return;
      } else {
        advance();
      }
    }
    SparkError e(
        ErrorKind::kParse, "UNCLOSED_BRACKETED_COMMENT",
        "Found an unclosed bracketed comment. Please, append */ at the end of the comment.", {},
        "42601");
    throw e;
  }

  [[noreturn]] void fail_at_char(Token& t) {
    t.kind = TokenKind::kOperator;
    t.stop = t.begin;
    t.text = std::string(1, s_[t.begin]);
    throw_syntax_error(s_, t);
  }

  void lex_one(Token& t) {
    char c = s_[pos_];
    char n = at(pos_ + 1);
    if ((c == 'r' || c == 'R') && (n == '\'' || n == '"')) {
      advance();
      t.raw = true;
      lex_string(t, n);
      return;
    }
    if (c == '\'' || c == '"') return lex_string(t, c);
    if (c == '`') return lex_quoted_identifier(t);
    if (is_digit(c) || (c == '.' && is_digit(n) && !prev_allows_member_access()))
      return lex_number_or_word(t);
    if (is_word_char(c)) return lex_word(t);
    if (c == '/' && n == '*' && at(pos_ + 2) == '+') return lex_hint(t);
    if (c == '?') {
      t.kind = TokenKind::kPositionalParam;
      advance();
      return;
    }
    for (std::string_view op : kOperators) {
      if (s_.substr(pos_, op.size()) == op) {
        t.kind = TokenKind::kOperator;
        t.text = std::string(op);
        advance(op.size());
        last_was_value_ = op == ")" || op == "]";
        return;
      }
    }
    fail_at_char(t);
  }

  // `a.5` is a member access after a name or `)`, never the decimal `.5`.
  bool prev_allows_member_access() const { return last_was_value_; }

  void lex_string(Token& t, char quote) {
    size_t open = pos_;
    advance();  // opening quote
    std::string body;
    while (true) {
      if (pos_ >= s_.size()) {
        Token q;
        q.kind = TokenKind::kOperator;
        q.begin = static_cast<int>(open);
        q.stop = q.begin;
        q.text = std::string(1, quote);
        throw_syntax_error(s_, q);
      }
      char c = s_[pos_];
      if (c == '\\' && !t.raw && pos_ + 1 < s_.size()) {
        body += c;
        body += s_[pos_ + 1];
        advance(2);
        continue;
      }
      if (c == quote) {
        if (at(pos_ + 1) == quote) {  // a doubled quote stands for itself
          body += t.raw ? std::string(2, quote) : (quote == '\'' ? "\\'" : "\\\"");
          advance(2);
          continue;
        }
        advance();
        break;
      }
      body += c;
      advance();
    }
    t.kind = TokenKind::kString;
    t.value = t.raw ? body : unescape_string(body);
    last_was_value_ = true;
  }

  void lex_quoted_identifier(Token& t) {
    size_t open = pos_;
    advance();
    std::string name;
    while (true) {
      if (pos_ >= s_.size()) {
        Token q;
        q.kind = TokenKind::kOperator;
        q.begin = static_cast<int>(open);
        q.stop = q.begin;
        q.text = "`";
        throw_syntax_error(s_, q);
      }
      char c = s_[pos_];
      if (c == '`') {
        if (at(pos_ + 1) == '`') {
          name += '`';
          advance(2);
          continue;
        }
        advance();
        break;
      }
      name += c;
      advance();
    }
    t.kind = TokenKind::kQuotedIdentifier;
    t.value = std::move(name);
    last_was_value_ = true;
  }

  void lex_hint(Token& t) {
    size_t end = s_.find("*/", pos_ + 3);
    if (end == std::string_view::npos) {
      SparkError e(
          ErrorKind::kParse, "UNCLOSED_BRACKETED_COMMENT",
          "Found an unclosed bracketed comment. Please, append */ at the end of the comment.", {},
          "42601");
      throw e;
    }
    t.kind = TokenKind::kHint;
    t.value = std::string(s_.substr(pos_ + 3, end - pos_ - 3));
    advance(end + 2 - pos_);
    t.text = "/*+";
  }

  void lex_word(Token& t) {
    size_t start = pos_;
    bool ascii = true;
    while (pos_ < s_.size() && is_word_char(s_[pos_])) {
      if (static_cast<unsigned char>(s_[pos_]) >= 0x80) ascii = false;
      advance();
    }
    t.kind = TokenKind::kWord;
    t.text = std::string(s_.substr(start, pos_ - start));
    t.value = t.text;
    t.upper.reserve(t.text.size());
    for (char c : t.text) t.upper += upper_char(c);
    if (!ascii) {
      SparkError e = positioned_error(ErrorKind::kParse, "INVALID_IDENTIFIER",
                                      "The unquoted identifier " + t.text +
                                          " is invalid and must be back quoted as: `" + t.text +
                                          "`.\nUnquoted identifiers can only contain ASCII letters "
                                          "('a' - 'z', 'A' - 'Z'), digits ('0' - "
                                          "'9'), and underbar ('_').\nUnquoted identifiers must "
                                          "also not start with a digit.\nDifferent "
                                          "data sources and meta stores may impose additional "
                                          "restrictions on valid identifiers.",
                                      {{"ident", t.text}}, s_, t.begin, static_cast<int>(pos_) - 1);
      throw e;
    }
    last_was_value_ = true;
  }

  // A number, or a word that starts with digits (`1a` is an identifier in Spark).
  void lex_number_or_word(Token& t) {
    size_t start = pos_;
    size_t i = pos_;
    while (is_digit(at(i))) ++i;
    size_t int_digits = i - start;
    bool has_dot = false, has_exp = false;
    if (at(i) == '.') {
      // `1.` is a decimal; `1.e5` too; but `t1.col` never reaches here (it starts with a letter).
      has_dot = true;
      ++i;
      while (is_digit(at(i))) ++i;
    }
    size_t frac_end = i;
    if ((at(i) == 'e' || at(i) == 'E') && (int_digits > 0 || frac_end - start > 1)) {
      size_t j = i + 1;
      if (at(j) == '+' || at(j) == '-') ++j;
      if (is_digit(at(j))) {
        while (is_digit(at(j))) ++j;
        has_exp = true;
        i = j;
      }
    }
    // Suffix.
    NumberKind kind =
        has_exp ? NumberKind::kExponent : (has_dot ? NumberKind::kDecimal : NumberKind::kInteger);
    size_t end = i;
    char s1 = upper_char(at(i)), s2 = upper_char(at(i + 1));
    if (s1 == 'B' && s2 == 'D') {
      kind = NumberKind::kBigDecimal;
      end = i + 2;
    } else if (s1 == 'D') {
      kind = NumberKind::kDouble;
      end = i + 1;
    } else if (s1 == 'F') {
      kind = NumberKind::kFloat;
      end = i + 1;
    } else if (!has_dot && !has_exp && (s1 == 'L' || s1 == 'S' || s1 == 'Y')) {
      kind = s1 == 'L' ? NumberKind::kBigint
                       : (s1 == 'S' ? NumberKind::kSmallint : NumberKind::kTinyint);
      end = i + 1;
    }
    // A longer word wins (`1a`, `12abc`, `1e3x`), as the longest-match rule of Spark's lexer.
    if (!has_dot && is_word_char(at(end))) {
      size_t w = start;
      while (is_word_char(at(w))) ++w;
      if (w > end) return lex_word(t);
    }
    if (has_dot && is_word_char(at(end)) && int_digits > 0) {
      // `1.5a`: Spark rejects the decimal form; read the integer part alone.
      kind = NumberKind::kInteger;
      end = start + int_digits;
    }
    t.kind = TokenKind::kNumber;
    t.number = kind;
    advance(end - start);
    t.text = std::string(s_.substr(start, end - start));
    last_was_value_ = true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 0;
  bool last_was_value_ = false;
};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}


}  // namespace

std::string unescape_string(std::string_view b) {
  std::string out;
  out.reserve(b.size());
  for (size_t i = 0; i < b.size(); ++i) {
    char c = b[i];
    if (c != '\\' || i + 1 >= b.size()) {
      out += c;
      continue;
    }
    char n = b[i + 1];
    // \uXXXX
    if (n == 'u' && i + 6 <= b.size()) {
      uint32_t cp = 0;
      bool ok = true;
      for (size_t k = 0; k < 4; ++k) {
        int h = hex_value(b[i + 2 + k]);
        if (h < 0) ok = false;
        cp = cp * 16 + static_cast<uint32_t>(h < 0 ? 0 : h);
      }
      if (ok) {
        // A surrogate pair written as two \u escapes becomes one character.
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 12 <= b.size() && b[i + 6] == '\\' &&
            b[i + 7] == 'u') {
          uint32_t lo = 0;
          bool ok2 = true;
          for (size_t k = 0; k < 4; ++k) {
            int h = hex_value(b[i + 8 + k]);
            if (h < 0) ok2 = false;
            lo = lo * 16 + static_cast<uint32_t>(h < 0 ? 0 : h);
          }
          if (ok2 && lo >= 0xDC00 && lo <= 0xDFFF) {
            append_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
            i += 11;
            continue;
          }
        }
        append_utf8(out, cp);
        i += 5;
        continue;
      }
    }
    // \UXXXXXXXX
    if (n == 'U' && i + 10 <= b.size()) {
      uint32_t cp = 0;
      bool ok = true;
      for (size_t k = 0; k < 8; ++k) {
        int h = hex_value(b[i + 2 + k]);
        if (h < 0) ok = false;
        cp = cp * 16 + static_cast<uint32_t>(h < 0 ? 0 : h);
      }
      if (ok && cp <= 0x10FFFF) {
        append_utf8(out, cp);
        i += 9;
        continue;
      }
    }
    // Three octal digits: \101 = 'A'.
    if (i + 3 < b.size() && n >= '0' && n <= '3' && b[i + 2] >= '0' && b[i + 2] <= '7' &&
        b[i + 3] >= '0' && b[i + 3] <= '7') {
      append_utf8(out,
                  static_cast<uint32_t>((n - '0') * 64 + (b[i + 2] - '0') * 8 + (b[i + 3] - '0')));
      i += 3;
      continue;
    }
    ++i;
    switch (n) {
      case '0':
        out += '\0';
        break;
      case 'b':
        out += '\b';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'Z':
        out += '\x1A';
        break;
      case '%':
        out += "\\%";
        break;  // kept escaped for LIKE patterns
      case '_':
        out += "\\_";
        break;
      default:
        out += n;
        break;
    }
  }
  return out;
}

std::vector<Token> tokenize(std::string_view sql) { return Lexer(sql).run(); }

}  // namespace ember::sql
