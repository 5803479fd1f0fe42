#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "common/datetime_pattern.h"
#include "common/timezone.h"
#include "io/csv_options.h"
#include "types/data_type.h"

namespace ember::io {

/// A point of CSV schema inference's type lattice.
struct InferredType {
  enum Kind : uint8_t {
    kNull, kInt, kLong, kDecimal, kDouble, kDate, kTimestampNtz, kTimestamp, kBoolean, kString
  };
  Kind kind = kNull;
  int precision = 0, scale = 0;  // kDecimal

  bool operator==(const InferredType& o) const {
    return kind == o.kind && (kind != kDecimal || (precision == o.precision && scale == o.scale));
  }
  /// The Spark type a column of this kind gets (null → string).
  TypePtr to_type() const;
};

/// Spark's CSV type inference, value by value. Given the type inferred so far, a value is
/// tried against the same type and the ones after it, in this order:
///   int → bigint → decimal (integers beyond bigint: no fraction, no exponent) → double →
///   date (only with preferDate, default on; strict `yyyy-MM-dd` or the user's dateFormat) →
///   timestamp_ntz (only when spark.sql.timestampType is TIMESTAMP_NTZ) → timestamp →
///   boolean → string
/// and the result is merged with the type so far (int+double → double, date+timestamp →
/// timestamp, decimals widen, anything else → string). Null, empty and `nullValue` values
/// leave the type unchanged; a column that never sees a value is a string column.
class CsvTypeInference {
 public:
  CsvTypeInference(const CsvOptions& options, const TimeZone& zone);

  InferredType infer(InferredType so_far, std::string_view value) const;

  /// The tightest type of two, as Spark merges partition results; nullopt when none.
  static std::optional<InferredType> compatible(InferredType a, InferredType b);
  /// compatible() or string.
  static InferredType merge(InferredType a, InferredType b) {
    auto c = compatible(a, b);
    return c ? *c : InferredType{InferredType::kString};
  }

 private:
  InferredType try_int(std::string_view v) const;
  InferredType try_long(std::string_view v) const;
  InferredType try_decimal(std::string_view v) const;
  InferredType try_double(std::string_view v) const;
  InferredType try_date(std::string_view v) const;
  InferredType try_timestamp_ntz(std::string_view v) const;
  InferredType try_timestamp(std::string_view v) const;
  InferredType try_boolean(std::string_view v) const;

  const CsvOptions& options_;
  const TimeZone& zone_;
  DateTimePattern date_format_;
  std::unique_ptr<DateTimePattern> timestamp_format_;
  std::unique_ptr<DateTimePattern> timestamp_ntz_format_;
};

}  // namespace ember::io
