#include "functions/json_options.h"

#include <algorithm>
#include <cctype>

#include "common/ascii.h"
#include "common/error.h"

namespace ember::functions {
namespace {
}  // namespace

FunctionOptions::FunctionOptions(const Column& map_column) {
  if (map_column.length() == 0 || map_column.is_null(0)) return;
  const Value v = map_column.value_at(0);
  for (const Value& entry : v.as_list()) {
    const auto& kv = entry.as_list();
    if (kv[0].is_null() || kv[1].is_null()) continue;
    entries_[ascii_lower(kv[0].as_bytes())] = kv[1].as_bytes();
  }
}

bool FunctionOptions::has(const std::string& key) const { return entries_.count(ascii_lower(key)) > 0; }

std::string FunctionOptions::get(const std::string& key, const std::string& fallback) const {
  auto it = entries_.find(ascii_lower(key));
  return it == entries_.end() ? fallback : it->second;
}

bool FunctionOptions::get_bool(const std::string& key, bool fallback) const {
  auto it = entries_.find(ascii_lower(key));
  if (it == entries_.end()) return fallback;
  return ascii_lower(it->second) == "true";
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

TypePtr parse_schema_text(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return parse_json_type(text);
  try {
    return parse_ddl_schema(text);
  } catch (const SparkError&) {
    // Neither a field list nor a type: Spark reports the type parser's error, for which a
    // second word after a type name ("a FOO") is extra input.
    size_t i = first, e = first;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
    i = text.find_first_not_of(" \t\r\n", e);
    if (e > first && i != std::string::npos && i > e && std::isalpha(static_cast<unsigned char>(text[i]))) {
      size_t w = i;
      while (w < text.size() && !std::isspace(static_cast<unsigned char>(text[w])) && text[w] != ',') ++w;
      const std::string word = text.substr(i, w - i);
      throw SparkError(ErrorKind::kParse, "PARSE_SYNTAX_ERROR",
                       "Syntax error at or near '" + word + "': extra input '" + word + "'.",
                       {{"error", "'" + word + "'"}, {"hint", ": extra input '" + word + "'"}}, "42601");
    }
    return parse_data_type(text);
  }
}

TypePtr schema_argument(const ArgInfo& s) {
  if (!s.literal || s.type->id() != TypeId::kString || s.literal->is_null()) {
    throw SparkError(ErrorKind::kAnalysis, "INVALID_SCHEMA.NON_STRING_LITERAL",
                     "The input schema \"" + (s.literal && !s.literal->is_null() ? s.type->sql() : std::string("NULL")) +
                         "\" is not a valid schema string. The input expression must be string literal and not null.",
                     {{"inputSchema", "\"" + s.type->sql() + "\""}}, "42K07");
  }
  return parse_schema_text(s.literal->as_bytes());
}

TypePtr as_nullable(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kArray: return DataType::array(as_nullable(t->element_type()), true);
    case TypeId::kMap: return DataType::map(as_nullable(t->key_type()), as_nullable(t->value_type()), true);
    case TypeId::kStruct: {
      std::vector<StructField> fields;
      for (const auto& f : t->fields()) fields.push_back({f.name, as_nullable(f.type), true, f.metadata_json});
      return DataType::struct_(std::move(fields));
    }
    default: return t;
  }
}

void require_options_map(const std::vector<ArgInfo>& a, size_t i) {
  if (a.size() <= i) return;
  const TypePtr& t = a[i].type;
  if (t->id() != TypeId::kMap || t->key_type()->id() != TypeId::kString ||
      t->value_type()->id() != TypeId::kString) {
    throw SparkError(ErrorKind::kAnalysis, "INVALID_OPTIONS.NON_STRING_TYPE",
                     "Invalid options: A type of keys and values in `map()` must be string, but got \"" +
                         t->sql() + "\".",
                     {{"mapType", "\"" + t->sql() + "\""}}, "42K06");
  }
}

FunctionOptions options_at(const std::vector<ColumnPtr>& a, size_t i) {
  return a.size() > i ? FunctionOptions(*a[i]) : FunctionOptions();
}

void throw_failfast(const std::string& record) {
  throw SparkError(ErrorKind::kRuntime, "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
                   "Malformed records are detected in record parsing: " + record +
                       ". Parse Mode: FAILFAST. To process malformed records as null result, try setting the "
                       "option 'mode' as 'PERMISSIVE'.",
                   {{"badRecord", record}, {"failFastMode", "FAILFAST"}}, "22023");
}

void throw_parse_mode_unsupported(const std::string& fn, const std::string& mode) {
  throw SparkError(ErrorKind::kAnalysis, "PARSE_MODE_UNSUPPORTED",
                   "The function `" + fn + "` doesn't support the " + mode +
                       " mode. Acceptable modes are PERMISSIVE and FAILFAST.",
                   {{"funcName", "`" + fn + "`"}, {"mode", mode}}, "42601");
}

}  // namespace ember::functions

