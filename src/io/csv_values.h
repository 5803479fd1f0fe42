#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "common/datetime_pattern.h"
#include "io/column_writer.h"
#include "io/csv_options.h"

namespace ember {
class TimeZone;
}

namespace ember::io {

/// How the CSV source turns one field's text into a value of its column's type: Java's number
/// syntax, `nanValue` / `positiveInf` / `negativeInf`, BigDecimal with grouping commas, and
/// `dateFormat` / `timestampFormat` / `timestampNTZFormat` (or Spark's default parsers when
/// unset). The file reader and from_csv share it, so a field reads the same in both.
class CsvValueConverter {
 public:
  enum class Kind : uint8_t {
    kString, kBoolean, kByte, kShort, kInt, kLong, kFloat, kDouble, kDecimal, kDate,
    kTimestamp, kTimestampNtz,
  };
  /// What a column's values are parsed as.
  struct Target {
    Kind kind = Kind::kString;
    int precision = 0, scale = 0;
  };

  CsvValueConverter(const CsvOptions& options, const TimeZone& zone);

  /// Whether the CSV source reads columns of this type (atomic types but binary, intervals
  /// and TIME).
  static bool supports(const DataType& type);
  /// The target of a column of a supported type; throws UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE
  /// for the others.
  static Target target_of(const StructField& field);

  /// Whether a field's text stands for null (`nullValue`, or the empty string by default).
  bool is_null_text(std::string_view v) const {
    return options_.null_value.empty() ? v.empty() : v == options_.null_value;
  }

  /// Appends the value of `v` to `w`; false (and nothing appended) when `v` does not parse.
  bool convert(const Target& t, std::string_view v, ColumnWriter& w) const;

 private:
  const CsvOptions& options_;
  const TimeZone& zone_;
  std::unique_ptr<DateTimePattern> date_format_, timestamp_format_, timestamp_ntz_format_;
};

}  // namespace ember::io
