#pragma once

// Java regular expressions for functions outside the regexp family that take a pattern
// (str_to_map's delimiters, parse_url's query key). The engine is RE2, as in string_regexp.cc;
// builds without RE2 raise UNSUPPORTED_FEATURE when one is used.

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions {

/// A pattern java_regex_to_re2 cannot translate: one Java rejects too, or one using a construct
/// RE2 cannot express (backreferences, lookaround, atomic groups, possessive quantifiers). The
/// message says which.
class JavaRegexError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A java.util.regex pattern in RE2's syntax, matching what Java matches: the constructs the
/// two spell or mean differently (property classes such as \p{IsHan}, \p{InGreek},
/// \p{javaMirrored}, class intersections, \s, \v, \R, `.`, embedded flags and COMMENTS mode)
/// rewritten, everything else as written. Throws JavaRegexError.
///
/// Java's \Z (and $ outside MULTILINE mode) also match before a line terminator that ends the
/// input, which RE2 cannot say without consuming it. With `end_marks`, each one gets an empty
/// capturing group before the terminator, whose number is listed there: when such a group takes
/// part in a match before a terminator, Java's match (and each group reaching the end) ends
/// where it is, and the group is not one of the pattern's own.
std::string java_regex_to_re2(std::string_view pattern, std::vector<int>* end_marks = nullptr);

/// Compiles patterns on demand and keeps the last one (patterns are constants in almost every
/// query). A bad pattern raises INVALID_PARAMETER_VALUE.PATTERN naming `fn`.
class JavaRegex {
 public:
  explicit JavaRegex(std::string fn);
  ~JavaRegex();

  /// Spark's UTF8String.split(s, limit), limit != 0 (no limit when negative): Java's split,
  /// keeping trailing empty strings, except that an empty pattern splits into code points.
  std::vector<std::string_view> split(std::string_view pattern, std::string_view s, int64_t limit);
  /// Capturing group `group` of the first match of `pattern` in `s` (Matcher.find); nullopt
  /// when nothing matches.
  std::optional<std::string_view> find_group(std::string_view pattern, std::string_view s, int group);
  /// Whether `pattern` matches the whole of `s` (String.matches).
  bool matches(std::string_view pattern, std::string_view s);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ember::functions
