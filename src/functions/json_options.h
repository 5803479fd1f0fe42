#pragma once

// What the JSON and CSV functions share: their options (from_json's `options` map and friends),
// read from the constant map argument and looked up case-insensitively as Spark's option maps
// are; the schema text from_json and from_csv take; the errors of their parse modes.

#include <map>
#include <string>

#include "column/column.h"
#include "common/json.h"
#include "functions/function.h"
#include "io/data_source.h"

namespace ember::functions {

class FunctionOptions {
 public:
  FunctionOptions() = default;
  /// The entries of the first row of `map_column` (a constant map<string, string>).
  explicit FunctionOptions(const Column& map_column);

  bool has(const std::string& key) const;
  std::string get(const std::string& key, const std::string& fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;

  /// The parser relaxations Spark's JSON options name, with Spark's defaults (single quotes and
  /// NaN / Infinity allowed, the rest off).
  JsonParseOptions json_parse_options() const;
  /// The options as a data source reads them (for the CSV options parser).
  io::Options io_options() const { return io::Options(entries_); }

 private:
  std::map<std::string, std::string> entries_;  // keys lower case
};

/// A schema given as text: Spark's JSON form, a DDL field list ("a INT, b STRING") or a type.
/// Throws PARSE_SYNTAX_ERROR (or the type parser's error) for anything else.
TypePtr parse_schema_text(const std::string& text);

/// The schema a from_json / from_csv / from_xml call gives as its argument `s`: a non-null
/// string literal (INVALID_SCHEMA.NON_STRING_LITERAL otherwise) parsed by parse_schema_text.
TypePtr schema_argument(const ArgInfo& s);

/// Every nested field and element nullable, as Spark makes a from_json / from_csv schema.
TypePtr as_nullable(const TypePtr& t);

/// INVALID_OPTIONS.NON_STRING_TYPE unless argument `i` (when present) is a map<string, string>.
void require_options_map(const std::vector<ArgInfo>& args, size_t i);

/// The options at argument `i`, or none when the call has fewer arguments.
FunctionOptions options_at(const std::vector<ColumnPtr>& args, size_t i);

/// MALFORMED_RECORD_IN_PARSING in FAILFAST mode; `record` is what Spark shows of the record.
[[noreturn]] void throw_failfast(const std::string& record);

/// PARSE_MODE_UNSUPPORTED for a mode other than PERMISSIVE and FAILFAST (DROPMALFORMED).
[[noreturn]] void throw_parse_mode_unsupported(const std::string& fn, const std::string& mode);

}  // namespace ember::functions
