#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ember {

/// A small JSON document model for the places Ember reads JSON it does not stream (schemas,
/// options, error parameters). Data-file JSON is parsed by io/, not here.
struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // string value, or the literal number text
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;  // object, in document order

  const JsonValue* find(const std::string& key) const;
  std::string get_string(const std::string& key, const std::string& fallback = "") const;
  bool get_bool(const std::string& key, bool fallback) const;
};

/// Parses a complete JSON text; throws std::invalid_argument with the offset on bad input.
JsonValue parse_json(const std::string& text);

/// The relaxations of the JSON grammar Spark's JSON options switch on (Jackson's parser
/// features). Without them the grammar is RFC 8259's: no leading zeros, no `+`, no bare `.5`.
struct JsonParseOptions {
  bool allow_comments = false;               // /* ... */ and // to the end of the line
  bool allow_unquoted_field_names = false;   // {a: 1}
  bool allow_single_quotes = false;          // {'a': 'x'}
  bool allow_non_numeric_numbers = false;    // NaN, Infinity, -Infinity, +Infinity
  bool allow_numeric_leading_zeros = false;  // 007
  bool allow_backslash_escaping_any = false; // "\q" is "q"
  bool allow_unquoted_control_chars = false; // raw characters below 0x20 inside strings
};

/// Parses the JSON value at the start of `text` (after white space and, when allowed,
/// comments) into `out` and returns the offset just past it; what follows is not read. Throws
/// std::invalid_argument on bad input. A number's `text` is its literal; NaN and the
/// infinities are numbers whose text is the token.
size_t parse_json_prefix(std::string_view text, const JsonParseOptions& options, JsonValue* out);

/// Whether a number's literal is integral (no fraction, no exponent, not NaN or infinite).
bool json_number_is_integral(const JsonValue& v);

/// Appends `s` as a JSON string literal (quoted, escaped) to `out`. Control characters become
/// \u00XX escapes, with upper-case hex digits when `upper_hex` (as Jackson writes data files).
void json_quote(std::string& out, std::string_view s, bool upper_hex = false);
std::string json_quote(const std::string& s);

/// The value as compact JSON text (no spaces; members in document order).
std::string json_text(const JsonValue& v);

}  // namespace ember
