#pragma once

// Java regular expressions for functions outside the regexp family that take a pattern
// (str_to_map's delimiters, parse_url's query key). The engine is RE2, as in string_regexp.cc;
// builds without RE2 raise UNSUPPORTED_FEATURE when one is used.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions {

/// A java.util.regex pattern in RE2's syntax: the constructs the two spell differently
/// (property classes such as \p{IsHan}, \p{InGreek}, \p{Lower} or \p{javaLowerCase}, \uXXXX,
/// octal \0 escapes, \e, \h) rewritten, everything else as written.
std::string java_regex_to_re2(std::string_view pattern);

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
