#pragma once

// Values between JSON documents and Spark types, shared by the JSON data source and sink and
// the JSON functions (from_json, to_json, schema_of_json): Spark's schema inference for JSON
// values, the conversion of a parsed value to a column type, and JacksonGenerator's text for
// column values.

#include <optional>
#include <string>

#include "column/column.h"
#include "column/value.h"
#include "common/datetime_pattern.h"
#include "common/json.h"
#include "io/datetime_format.h"

namespace ember {
class TimeZone;
}

namespace ember::io {

/// Spark's JsonInferSchema for one value: integers bigint (decimal beyond, double past 38
/// digits), other numbers double (decimal with `prefers_decimal` when they fit), booleans,
/// strings, structs with fields sorted by name, arrays of the merged element type, nulls of
/// the null type; every primitive a string with `primitives_as_string`.
TypePtr infer_json_type(const JsonValue& v, bool primitives_as_string, bool prefers_decimal = false);
/// The type two inferred types widen to (numbers widen, structs merge, the rest is string).
TypePtr merge_json_types(const TypePtr& a, const TypePtr& b);
/// Spark's canonicalizeType: null types become string, empty structs vanish (nullopt).
std::optional<TypePtr> canonical_json_type(const TypePtr& t);

/// How parsed values convert to column types.
struct JsonConvertContext {
  const TimeZone* zone = nullptr;
  std::optional<DateTimePattern> date_format;
  std::optional<DateTimePattern> timestamp_format;
  /// The `locale` option: decimals written as JSON strings are read with its symbols (en-US,
  /// which drops grouping commas, when null); the patterns above carry its names.
  const LocaleData* locale = nullptr;
  bool case_sensitive = false;
  /// A struct field that does not convert becomes null and the rest of the struct is kept
  /// (Spark's partial results), instead of failing the whole struct.
  bool partial_structs = false;
  /// A non-string value read into a string column is written back as Jackson's generator
  /// writes it (json_token_text), as the JSON functions do; otherwise its text is kept, as the
  /// JSON data source does.
  bool normalize_numbers = false;
};

/// Converts a JSON value to `type`; false when it does not fit (a malformed record). With
/// `partial_structs`, `*bad` is set when some nested field was nulled instead.
bool convert_json_value(const JsonValue& v, const DataType& type, const JsonConvertContext& ctx, Value* out,
                        bool* bad = nullptr);

/// The text Spark stores for a JSON token read into a string column: strings unquoted, other
/// values as compact JSON with numbers as Jackson re-writes them (floating point in Java's
/// Double.toString form, integers without leading zeros or a minus zero).
std::string json_token_text(const JsonValue& v);

/// Writes column values as Spark's JacksonGenerator does: structs as objects (null fields
/// left out with `ignore_null_fields`), maps as objects keyed by the key's text, arrays,
/// dates and timestamps through the formatters, binary as base64, NaN and infinities quoted.
class JsonValueWriter {
 public:
  struct Options {
    bool ignore_null_fields = true;
    bool pretty = false;
    std::string date_format = "yyyy-MM-dd";
    std::string timestamp_format = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
    std::string timestamp_ntz_format = "yyyy-MM-dd'T'HH:mm:ss[.SSS]";
    std::string time_zone = "UTC";
    const LocaleData* locale = nullptr;  // month and day names of the patterns; en-US when null
  };
  explicit JsonValueWriter(const Options& o);

  /// Appends row `r` of `col` (null as `null`).
  void append_value(std::string& out, const Column& col, int64_t r) const { append(out, col, r, 0); }
  /// Appends the fields of row `r` of `columns` as one object.
  void append_fields(std::string& out, const std::vector<StructField>& fields, const std::vector<ColumnPtr>& columns,
                     int64_t r) const {
    append_object(out, fields, columns, r, 0);
  }

 private:
  void append(std::string& out, const Column& col, int64_t r, int depth) const;
  void append_object(std::string& out, const std::vector<StructField>& fields, const std::vector<ColumnPtr>& columns,
                     int64_t r, int depth) const;
  void newline(std::string& out, int depth) const;

  Options o_;
  DateTimeFormatter date_, ts_, ntz_;
  const TimeZone& zone_;
};

}  // namespace ember::io
