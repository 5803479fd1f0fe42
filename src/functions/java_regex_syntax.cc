// Java's regular expression syntax in the form RE2 reads. Spark's patterns are
// java.util.regex patterns; RE2 shares most of the syntax, and the parts it spells or means
// differently are rewritten here before compiling:
//  - the property classes \p{...} / \P{...} (Java's Is-prefixed scripts, categories and binary
//    properties, In-prefixed blocks, the POSIX and java* names), Java's \s, \h, \v, \R, \Z,
//    \uXXXX, \0 octal, \cX and \e escapes, and the line terminators `.` stops at;
//  - classes with negated members and intersections ([\P{L}x], [a-z&&[^aeiou]]), computed into
//    explicit ranges of code points;
//  - the embedded flags (?idmsuxU-idmsuxU) and (?flags:...), COMMENTS mode (x) included.
// What RE2 cannot do (backreferences, lookaround, atomic groups, possessive quantifiers) raises
// JavaRegexError, so that no query gets a different answer from Spark's.

#include <cctype>
#include <optional>
#include <vector>

#include "functions/java_regex_classes.h"
#include "functions/regexp_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using namespace java_regex;  // NOLINT(google-build-using-namespace): this file's vocabulary

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

/// A construct Java accepts and RE2 cannot express.
[[noreturn]] void unsupported(const std::string& what) {
  throw JavaRegexError(what + " (not supported by Ember's regular expression engine)");
}

/// A pattern Java rejects too, with Java's description.
[[noreturn]] void invalid(const std::string& what) { throw JavaRegexError(what); }

// ---- The translation -------------------------------------------------------------------------

/// The matching flags in effect: CASE_INSENSITIVE (i), UNIX_LINES (d), MULTILINE (m), DOTALL
/// (s), COMMENTS (x), UNICODE_CASE (u) and UNICODE_CHARACTER_CLASS (U).
struct Flags {
  bool i = false, d = false, m = false, s = false, x = false, u = false, U = false;
};

/// Java's \s: [ \t\n\x0B\f\r] (RE2's \s leaves out \x0B).
const RangeSet kJavaSpace = {{0x09, 0x0D}, {0x20, 0x20}};
/// Java's \v: vertical white space.
const RangeSet kVerticalSpace = {{0x0A, 0x0D}, {0x85, 0x85}, {0x2028, 0x2029}};

/// Rewrites a Java pattern for RE2 in one pass, keeping the flags of each group.
class Translator {
 public:
  Translator(std::string_view p, std::vector<int>* end_marks) : p_(p), end_marks_(end_marks) {}

  std::string run() {
    out_.reserve(p_.size());
    while (true) {
      skip_ignored();
      if (at_end()) break;
      const char c = p_[i_];
      const bool was_quantifier = quantifier_;
      quantifier_ = false;
      switch (c) {
        case '\\':
          escape();
          break;
        case '[': {
          const ParsedClass k = parse_class();
          if (k.negated)
            out_ += k.inner.body.empty() ? "(?s:.)" : "[^" + k.inner.body + "]";
          else
            out_ += k.inner.body.empty()
                        ? "[^" + code_point(0) + "-" + code_point(kMaxCodePoint) + "]"
                        : "[" + k.inner.body + "]";
          break;
        }
        case '(':
          group();
          break;
        case '$':
          ++i_;
          if (flags_.m)
            out_ += '$';  // RE2's multi-line $ knows \n only
          else
            end_of_input();
          break;
        case ')':
          ++i_;
          if (!saved_.empty()) {
            flags_ = saved_.back();
            saved_.pop_back();
          }
          out_ += ')';
          break;
        case '.':
          ++i_;
          if (flags_.s)
            out_ += "(?s:.)";
          else if (flags_.d)
            out_ += "[^\\n]";
          else
            out_ += "[^\\n\\r\\x{85}\\x{2028}\\x{2029}]";
          break;
        case '*':
        case '+':
        case '?':
          ++i_;
          if (was_quantifier && c == '+') unsupported("possessive quantifiers");
          if (was_quantifier && c == '?') {
            out_ += c;  // lazy
            break;
          }
          out_ += c;
          quantifier_ = true;
          break;
        case '{': {
          // A bounded quantifier {n}, {n,} or {n,m}; Java rejects any other brace.
          if (i_ + 1 >= p_.size() || !std::isdigit(static_cast<unsigned char>(p_[i_ + 1])))
            invalid("Illegal repetition");
          size_t k = i_ + 1;
          while (k < p_.size() && std::isdigit(static_cast<unsigned char>(p_[k]))) ++k;
          if (k < p_.size() && p_[k] == ',') ++k;
          while (k < p_.size() && std::isdigit(static_cast<unsigned char>(p_[k]))) ++k;
          if (k >= p_.size() || p_[k] != '}') invalid("Unclosed counted closure");
          out_.append(p_.substr(i_, k + 1 - i_));
          i_ = k + 1;
          quantifier_ = true;
          break;
        }
        default:
          if (flags_.i && c != '^' && c != '|')
            emit_literal(read_code_point());
          else
            copy_code_point();
          break;
      }
    }
    return out_;
  }

 private:
  struct ParsedClass {
    ClassText inner;  // the class without its leading ^
    bool negated = false;
  };

  bool at_end() const { return i_ >= p_.size(); }

  /// Java's \Z, and $ outside MULTILINE mode: the end of the input, or before a line terminator
  /// that ends it. RE2 cannot look ahead, so the terminator is matched, after an empty group
  /// that marks where Java's match ends (end_marks_).
  void end_of_input() {
    const std::string terminator = flags_.d ? "\\n" : "\\r\\n|[\\n\\r\\x{85}\\x{2028}\\x{2029}]";
    if (end_marks_ != nullptr) {
      end_marks_->push_back(++groups_);
      out_ += "(?:()(?:" + terminator + ")?\\z)";
    } else {
      out_ += "(?:(?:" + terminator + ")?\\z)";
    }
  }

  /// A literal character, in the case-insensitive form when CASE_INSENSITIVE is on.
  void emit_literal(char32_t c) {
    if (!flags_.i) {
      out_ += code_point(c);
    } else if (flags_.u) {
      out_ += "(?i:" + code_point(c) + ")";
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      out_ += "[" + code_point(c) + code_point(c ^ 0x20) + "]";
    } else {
      out_ += code_point(c);
    }
  }

  void copy_code_point() {
    size_t n = 1;
    while (i_ + n < p_.size() && (static_cast<unsigned char>(p_[i_ + n]) & 0xC0) == 0x80) ++n;
    out_.append(p_.substr(i_, n));
    i_ += n;
  }

  char32_t read_code_point() {
    const size_t start = i_;
    ++i_;
    while (i_ < p_.size() && (static_cast<unsigned char>(p_[i_]) & 0xC0) == 0x80) ++i_;
    const std::u32string d = utf8_decode(p_.substr(start, i_ - start));
    return d.empty() ? 0xFFFD : d[0];
  }

  bool is_line_terminator_at(size_t k) const {
    if (p_[k] == '\n') return true;
    if (flags_.d) return false;
    return p_[k] == '\r' || p_.compare(k, 2, "\xC2\x85") == 0 ||
           p_.compare(k, 3, "\xE2\x80\xA8") == 0 || p_.compare(k, 3, "\xE2\x80\xA9") == 0;
  }

  /// In COMMENTS mode: white space, and # up to the end of the line.
  void skip_ignored() {
    if (!flags_.x) return;
    while (!at_end()) {
      const char c = p_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\x0B' || c == '\f' || c == '\r') {
        ++i_;
      } else if (c == '#') {
        while (!at_end() && !is_line_terminator_at(i_)) ++i_;
      } else {
        break;
      }
    }
  }

  /// The flags of (?flags) or (?flags:, applied to `f`; i_ is on the first flag letter. Returns
  /// the RE2 spelling of the flags left to RE2 (m), "" when none: case insensitivity is written
  /// into each literal, as Java's differs from RE2's.
  std::string parse_flags(Flags& f) {
    bool on = true;
    std::string re2_on, re2_off;
    for (; !at_end() && p_[i_] != ')' && p_[i_] != ':'; ++i_) {
      const char c = p_[i_];
      bool* flag = nullptr;
      switch (c) {
        case '-':
          on = false;
          continue;
        case 'i':
          flag = &f.i;
          break;
        case 'd':
          flag = &f.d;
          break;
        case 'm':
          flag = &f.m;
          break;
        case 's':
          flag = &f.s;
          break;
        case 'x':
          flag = &f.x;
          break;
        case 'u':
          flag = &f.u;
          break;
        case 'U':
          flag = &f.U;
          break;
        case 'c':
          continue;  // CANON_EQ: Spark's strings are compared as they are
        default:
          invalid("Unknown inline modifier");
      }
      *flag = on;
      if (c == 'm') (on ? re2_on : re2_off) += c;
    }
    if (at_end()) invalid("Unknown group type");
    if (re2_on.empty() && re2_off.empty()) return "";
    return re2_on + (re2_off.empty() ? "" : "-" + re2_off);
  }

  void group() {
    ++i_;  // (
    if (at_end() || p_[i_] != '?') {
      saved_.push_back(flags_);
      out_ += '(';
      ++groups_;
      return;
    }
    ++i_;  // ?
    const std::string_view rest = p_.substr(i_);
    if (rest.substr(0, 1) == "=" || rest.substr(0, 1) == "!")
      unsupported("lookahead (?=...) and (?!...)");
    if (rest.substr(0, 2) == "<=" || rest.substr(0, 2) == "<!")
      unsupported("lookbehind (?<=...) and (?<!...)");
    if (rest.substr(0, 1) == ">") unsupported("atomic groups (?>...)");
    if (rest.substr(0, 1) == "<") {
      const size_t close = rest.find('>');
      if (close == std::string_view::npos) invalid("named capturing group is missing trailing '>'");
      saved_.push_back(flags_);
      out_ += "(?P" + std::string(rest.substr(0, close + 1));
      ++groups_;
      i_ += close + 1;
      return;
    }
    if (rest.substr(0, 1) == ":") {
      ++i_;
      saved_.push_back(flags_);
      out_ += "(?:";
      return;
    }
    Flags f = flags_;
    const std::string re2_flags = parse_flags(f);
    if (p_[i_] == ')') {
      // (?flags): for the rest of the enclosing group.
      ++i_;
      flags_ = f;
      if (!re2_flags.empty()) out_ += "(?" + re2_flags + ")";
      return;
    }
    ++i_;  // :
    saved_.push_back(flags_);
    flags_ = f;
    out_ += re2_flags.empty() ? "(?:" : "(?" + re2_flags + ":";
  }

  /// Reads the escape at i_ (a backslash) that stands for one character, if it is one.
  std::optional<char32_t> char_escape() {
    const char d = p_[i_ + 1];
    auto hex_value = [&](size_t from, size_t n) -> std::optional<char32_t> {
      if (from + n > p_.size()) return std::nullopt;
      char32_t v = 0;
      for (size_t k = from; k < from + n; ++k) {
        if (!is_hex(p_[k])) return std::nullopt;
        const char h = static_cast<char>(std::tolower(static_cast<unsigned char>(p_[k])));
        v = v * 16 + static_cast<char32_t>(h <= '9' ? h - '0' : h - 'a' + 10);
      }
      return v;
    };
    switch (d) {
      case 't':
        i_ += 2;
        return U'\t';
      case 'n':
        i_ += 2;
        return U'\n';
      case 'r':
        i_ += 2;
        return U'\r';
      case 'f':
        i_ += 2;
        return U'\f';
      case 'a':
        i_ += 2;
        return U'\a';
      case 'e':
        i_ += 2;
        return 0x1B;
      case 'c':
        if (i_ + 2 < p_.size()) {
          const char32_t v = static_cast<unsigned char>(p_[i_ + 2]) ^ 64;
          i_ += 3;
          return v;
        }
        return std::nullopt;
      case 'u': {
        auto v = hex_value(i_ + 2, 4);
        if (!v) return std::nullopt;
        i_ += 6;
        // A surrogate pair written as two escapes is one code point.
        if (*v >= 0xD800 && *v <= 0xDBFF && p_.compare(i_, 2, "\\u") == 0) {
          auto low = hex_value(i_ + 2, 4);
          if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
            i_ += 6;
            return 0x10000 + ((*v - 0xD800) << 10) + (*low - 0xDC00);
          }
        }
        return v;
      }
      case 'x': {
        if (i_ + 2 < p_.size() && p_[i_ + 2] == '{') {
          const size_t close = p_.find('}', i_ + 3);
          if (close == std::string_view::npos || close == i_ + 3) return std::nullopt;
          auto v = hex_value(i_ + 3, close - i_ - 3);
          if (!v) return std::nullopt;
          i_ = close + 1;
          return v;
        }
        auto v = hex_value(i_ + 2, 2);
        if (!v) return std::nullopt;
        i_ += 4;
        return v;
      }
      case '0': {
        // \0n, \0nn or \0mnn (m at most 3): an octal code.
        size_t k = i_ + 2;
        if (k >= p_.size() || p_[k] < '0' || p_[k] > '7') return std::nullopt;
        char32_t value = 0;
        const size_t most = p_[k] <= '3' ? 3 : 2;
        while (k < p_.size() && k < i_ + 2 + most && p_[k] >= '0' && p_[k] <= '7')
          value = value * 8 + (p_[k++] - '0');
        i_ = k;
        return value;
      }
      default:
        if (!std::isalnum(static_cast<unsigned char>(d))) {
          ++i_;
          return read_code_point();
        }
        return std::nullopt;
    }
  }

  /// Reads the escape at i_ that stands for a class (\d, \s, \w, \h, \v, \p{...} and their
  /// negations), if it is one.
  std::optional<ClassText> class_escape() {
    const char d = p_[i_ + 1];
    if (flags_.U && (d == 'd' || d == 'D' || d == 'w' || d == 'W' || d == 's' || d == 'S')) {
      // UNICODE_CHARACTER_CLASS: \d is any decimal digit, \w Java's Unicode word characters and
      // \s Unicode's White_Space.
      i_ += 2;
      const ClassText cls = d == 'd' || d == 'D'   ? ClassText{"\\p{Nd}", "\\P{Nd}"}
                            : d == 'w' || d == 'W' ? *java_table("WORD")
                                                   : *java_table("WHITESPACE");
      return std::islower(static_cast<unsigned char>(d)) ? cls : complement_of(cls);
    }
    switch (d) {
      case 'd':
        i_ += 2;
        return ClassText{"0-9", "\\D"};
      case 'D':
        i_ += 2;
        return ClassText{"\\D", "0-9"};
      case 'w':
        i_ += 2;
        return ClassText{"\\w", "\\W"};
      case 'W':
        i_ += 2;
        return ClassText{"\\W", "\\w"};
      case 's':
        i_ += 2;
        return text_of(kJavaSpace);
      case 'S':
        i_ += 2;
        return complement_of(text_of(kJavaSpace));
      case 'h':
        i_ += 2;
        return ClassText{kHorizontalSpace, ""};
      case 'H':
        i_ += 2;
        return complement_of(ClassText{kHorizontalSpace, ""});
      case 'v':
        i_ += 2;
        return text_of(kVerticalSpace);
      case 'V':
        i_ += 2;
        return complement_of(text_of(kVerticalSpace));
      case 'p':
      case 'P': {
        std::string_view name;
        size_t next = i_ + 3;
        if (i_ + 2 < p_.size() && p_[i_ + 2] == '{') {
          const size_t close = p_.find('}', i_ + 3);
          if (close == std::string_view::npos) invalid("Unclosed character family");
          name = p_.substr(i_ + 3, close - i_ - 3);
          next = close + 1;
        } else if (i_ + 2 < p_.size()) {
          name = p_.substr(i_ + 2, 1);
        }
        // Names Java and RE2 share are left to RE2, which rejects those it does not know.
        const std::string as_written(name);
        const ClassText cls =
            property(name, flags_.U)
                .value_or(ClassText{"\\p{" + as_written + "}", "\\P{" + as_written + "}"});
        i_ = next;
        return d == 'P' ? complement_of(cls) : cls;
      }
      default:
        return std::nullopt;
    }
  }

  void escape() {
    if (i_ + 1 >= p_.size()) invalid("Unexpected internal error");
    const char d = p_[i_ + 1];
    if (d == 'Q') {
      // A quoted section is literal up to \E (or the end).
      const size_t end = p_.find("\\E", i_ + 2);
      const size_t stop = end == std::string_view::npos ? p_.size() : end;
      const std::u32string quoted = utf8_decode(p_.substr(i_ + 2, stop - i_ - 2));
      for (char32_t c : quoted) emit_literal(c);
      i_ = end == std::string_view::npos ? p_.size() : end + 2;
      return;
    }
    if (auto cls = class_escape()) {
      out_ += cls->body.empty() ? "[^" + code_point(0) + "-" + code_point(kMaxCodePoint) + "]"
                                : "[" + cls->body + "]";
      return;
    }
    switch (d) {
      case 'R':
        i_ += 2;
        out_ += "(?:\\r\\n|[\\n\\x{B}\\f\\r\\x{85}\\x{2028}\\x{2029}])";
        return;
      case 'Z':
        i_ += 2;
        end_of_input();
        return;
      case 'z':
      case 'A':
      case 'b':
      case 'B':
        out_.append(p_.substr(i_, 2));
        i_ += 2;
        return;
      case 'G':
        unsupported("\\G (the end of the previous match)");
      case 'k':
        unsupported("backreferences");
      case 'X':
        unsupported("\\X (grapheme clusters)");
      default:
        break;
    }
    if (d >= '1' && d <= '9') unsupported("backreferences");
    const size_t start = i_;
    if (auto c = char_escape()) {
      emit_literal(*c);
      return;
    }
    // Left to RE2, which rejects what Java would too.
    i_ = start;
    out_.append(p_.substr(i_, 2));
    i_ += 2;
  }

  /// One character of a class (a literal or a character escape), i_ on it.
  std::optional<char32_t> class_char() {
    if (p_[i_] == '\\') {
      if (i_ + 1 >= p_.size()) return std::nullopt;
      return char_escape();
    }
    return read_code_point();
  }

  /// The class at i_ ('['), up to and including its ']'. Items are joined (union) and && splits
  /// them into operands to intersect, as Java's classes do.
  ParsedClass parse_class() {
    ++i_;  // [
    ParsedClass result;
    if (!at_end() && p_[i_] == '^') {
      result.negated = true;
      ++i_;
    }
    std::vector<ClassText> operands;
    ClassText current;
    bool first = true;
    while (true) {
      skip_ignored();
      if (at_end()) invalid("Unclosed character class");
      const char c = p_[i_];
      if (c == ']' && !first) {
        ++i_;
        break;
      }
      first = false;
      if (c == '[') {
        ParsedClass nested = parse_class();
        current = union_of(current, nested.negated ? complement_of(nested.inner) : nested.inner);
        continue;
      }
      if (c == '&' && p_.compare(i_, 2, "&&") == 0) {
        i_ += 2;
        operands.push_back(current);
        current = ClassText{};
        continue;
      }
      if (c == '\\' && i_ + 1 < p_.size() && p_[i_ + 1] == 'Q') {
        const size_t end = p_.find("\\E", i_ + 2);
        const size_t stop = end == std::string_view::npos ? p_.size() : end;
        for (char32_t q : utf8_decode(p_.substr(i_ + 2, stop - i_ - 2)))
          current = union_of(
              current, flags_.i ? folded_range(q, q, flags_.u) : ClassText{code_point(q), ""});
        i_ = end == std::string_view::npos ? p_.size() : end + 2;
        continue;
      }
      if (c == '\\') {
        if (auto cls = class_escape()) {
          current = union_of(current, *cls);
          continue;
        }
      }
      const size_t start = i_;
      auto lo = class_char();
      if (!lo) {
        // An escape RE2 may know (or reject) as written.
        i_ = start;
        current = union_of(current, ClassText{std::string(p_.substr(i_, 2)), ""});
        i_ += 2;
        continue;
      }
      char32_t hi = *lo;
      if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']' && p_[i_ + 1] != '[') {
        const size_t dash = i_;
        ++i_;
        auto h = class_char();
        if (!h) invalid("Illegal character range");
        if (*h < *lo) invalid("Illegal character range");
        hi = *h;
        (void)dash;
      }
      current = union_of(
          current, flags_.i
                       ? folded_range(*lo, hi, flags_.u)
                       : ClassText{code_point(*lo) + (hi > *lo ? "-" + code_point(hi) : ""), ""});
    }
    if (operands.empty()) {
      result.inner = current;
    } else {
      operands.push_back(current);
      ClassText acc = operands[0];
      for (size_t k = 1; k < operands.size(); ++k) {
        // Java ignores an empty operand ([a&&] is [a]).
        if (operands[k].body.empty()) continue;
        acc = acc.body.empty() ? operands[k] : intersection_of(acc, operands[k]);
      }
      result.inner = acc;
    }
    return result;
  }

  std::string_view p_;
  size_t i_ = 0;
  std::string out_;
  Flags flags_;
  std::vector<Flags> saved_;  // the flags outside each open group
  bool quantifier_ = false;   // the last token was a quantifier
  int groups_ = 0;            // capturing groups so far, the marks included
  std::vector<int>* end_marks_;
};

}  // namespace

std::string java_regex_to_re2(std::string_view p, std::vector<int>* end_marks) {
  if (end_marks) end_marks->clear();
  return Translator(p, end_marks).run();
}

}  // namespace ember::functions
