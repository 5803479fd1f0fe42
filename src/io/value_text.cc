#include "io/value_text.h"

#include "common/datetime.h"
#include "common/error.h"
#include "common/number_format.h"
#include "common/timezone.h"

namespace ember::io {

std::string value_text(const Column& c, int64_t r, const std::string& time_zone) {
  switch (c.type()->id()) {
    case TypeId::kBoolean: return c.bool_at(r) ? "true" : "false";
    case TypeId::kByte: return std::to_string(c.values<int8_t>()[r]);
    case TypeId::kShort: return std::to_string(c.values<int16_t>()[r]);
    case TypeId::kInt: return std::to_string(c.values<int32_t>()[r]);
    case TypeId::kLong: return std::to_string(c.values<int64_t>()[r]);
    case TypeId::kFloat: return java_float_string(c.values<float>()[r]);
    case TypeId::kDouble: return java_double_string(c.values<double>()[r]);
    case TypeId::kDecimal: return decimal_to_string(c.values<int128_t>()[r], c.type()->scale());
    case TypeId::kString:
    case TypeId::kBinary: return std::string(c.string_at(r));
    case TypeId::kDate: return format_date(c.values<int32_t>()[r]);
    case TypeId::kTimestamp: return format_timestamp(c.values<int64_t>()[r], TimeZone::get(time_zone));
    case TypeId::kTimestampNtz: return format_timestamp_ntz(c.values<int64_t>()[r]);
    case TypeId::kTime: return format_time(c.values<int64_t>()[r]);
    default: break;
  }
  throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                   "The data source does not support the column of the type " +
                       c.type()->sql() + ".",
                   {{"columnType", c.type()->sql()}});
}

}  // namespace ember::io
