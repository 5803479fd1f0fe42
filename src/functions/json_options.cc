#include "functions/json_options.h"

#include <algorithm>
#include <cctype>

namespace ember::functions {
namespace {
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

FunctionOptions::FunctionOptions(const Column& map_column) {
  if (map_column.length() == 0 || map_column.is_null(0)) return;
  const Value v = map_column.value_at(0);
  for (const Value& entry : v.as_list()) {
    const auto& kv = entry.as_list();
    if (kv[0].is_null() || kv[1].is_null()) continue;
    entries_[lower(kv[0].as_bytes())] = kv[1].as_bytes();
  }
}

bool FunctionOptions::has(const std::string& key) const { return entries_.count(lower(key)) > 0; }

std::string FunctionOptions::get(const std::string& key, const std::string& fallback) const {
  auto it = entries_.find(lower(key));
  return it == entries_.end() ? fallback : it->second;
}

bool FunctionOptions::get_bool(const std::string& key, bool fallback) const {
  auto it = entries_.find(lower(key));
  if (it == entries_.end()) return fallback;
  return lower(it->second) == "true";
}

JsonParseOptions FunctionOptions::json_parse_options() const {
  JsonParseOptions o;
  o.allow_comments = get_bool("allowComments", false);
  o.allow_unquoted_field_names = get_bool("allowUnquotedFieldNames", false);
  o.allow_single_quotes = get_bool("allowSingleQuotes", true);
  o.allow_numeric_leading_zeros = get_bool("allowNumericLeadingZeros", false);
  o.allow_non_numeric_numbers = get_bool("allowNonNumericNumbers", true);
  o.allow_backslash_escaping_any = get_bool("allowBackslashEscapingAnyCharacter", false);
  o.allow_unquoted_control_chars = get_bool("allowUnquotedControlChars", false);
  return o;
}

}  // namespace ember::functions
