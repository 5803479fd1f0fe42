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

/// Appends `s` as a JSON string literal (quoted, escaped) to `out`. Control characters become
/// \u00XX escapes, with upper-case hex digits when `upper_hex` (as Jackson writes data files).
void json_quote(std::string& out, std::string_view s, bool upper_hex = false);
std::string json_quote(const std::string& s);

/// The value as compact JSON text (no spaces; members in document order).
std::string json_text(const JsonValue& v);

}  // namespace ember
