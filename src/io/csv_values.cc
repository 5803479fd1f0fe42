#include "io/csv_values.h"

#include <climits>
#include <limits>

#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"
#include "io/text_parse.h"

namespace ember::io {

CsvValueConverter::CsvValueConverter(const CsvOptions& options, const TimeZone& zone)
    : options_(options), zone_(zone) {
  const LocaleData* l = options.locale;
  if (options.date_format) date_format_ = std::make_unique<DateTimePattern>(*options.date_format, l);
  if (options.timestamp_format) {
    timestamp_format_ = std::make_unique<DateTimePattern>(*options.timestamp_format, l);
  }
  if (options.timestamp_ntz_format) {
    timestamp_ntz_format_ = std::make_unique<DateTimePattern>(*options.timestamp_ntz_format, l);
  }
}

bool CsvValueConverter::supports(const DataType& type) {
  switch (type.id()) {
    case TypeId::kString:
    case TypeId::kBoolean:
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal:
    case TypeId::kDate:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return true;
    default: return false;
  }
}

CsvValueConverter::Target CsvValueConverter::target_of(const StructField& f) {
  Target t;
  switch (f.type->id()) {
    case TypeId::kString: t.kind = Kind::kString; return t;
    case TypeId::kBoolean: t.kind = Kind::kBoolean; return t;
    case TypeId::kByte: t.kind = Kind::kByte; return t;
    case TypeId::kShort: t.kind = Kind::kShort; return t;
    case TypeId::kInt: t.kind = Kind::kInt; return t;
    case TypeId::kLong: t.kind = Kind::kLong; return t;
    case TypeId::kFloat: t.kind = Kind::kFloat; return t;
    case TypeId::kDouble: t.kind = Kind::kDouble; return t;
    case TypeId::kDecimal:
      t.kind = Kind::kDecimal;
      t.precision = f.type->precision();
      t.scale = f.type->scale();
      return t;
    case TypeId::kDate: t.kind = Kind::kDate; return t;
    case TypeId::kTimestamp: t.kind = Kind::kTimestamp; return t;
    case TypeId::kTimestampNtz: t.kind = Kind::kTimestampNtz; return t;
    default: break;
  }
  throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                   "The CSV datasource doesn't support the column " + quote_id(f.name) +
                       " of the type \"" + f.type->sql() + "\".",
                   {{"format", "CSV"}, {"columnName", quote_id(f.name)},
                    {"columnType", "\"" + f.type->sql() + "\""}},
                   "0A000");
}

bool CsvValueConverter::convert(const Target& t, std::string_view v, ColumnWriter& w) const {
  int64_t i;
  switch (t.kind) {
    case Kind::kString:
      w.append_string(v);
      return true;
    case Kind::kInt:
      if (!parse_java_integer(v, INT32_MIN, INT32_MAX, &i)) return false;
      w.append<int32_t>(static_cast<int32_t>(i));
      return true;
    case Kind::kLong:
      if (!parse_java_integer(v, INT64_MIN, INT64_MAX, &i)) return false;
      w.append<int64_t>(i);
      return true;
    case Kind::kShort:
      if (!parse_java_integer(v, INT16_MIN, INT16_MAX, &i)) return false;
      w.append<int16_t>(static_cast<int16_t>(i));
      return true;
    case Kind::kByte:
      if (!parse_java_integer(v, INT8_MIN, INT8_MAX, &i)) return false;
      w.append<int8_t>(static_cast<int8_t>(i));
      return true;
    case Kind::kDouble: {
      double d;
      if (v == options_.nan_value) d = std::numeric_limits<double>::quiet_NaN();
      else if (v == options_.negative_inf) d = -std::numeric_limits<double>::infinity();
      else if (v == options_.positive_inf) d = std::numeric_limits<double>::infinity();
      else if (!parse_java_double(v, &d)) return false;
      w.append<double>(d);
      return true;
    }
    case Kind::kFloat: {
      float f;
      if (v == options_.nan_value) f = std::numeric_limits<float>::quiet_NaN();
      else if (v == options_.negative_inf) f = -std::numeric_limits<float>::infinity();
      else if (v == options_.positive_inf) f = std::numeric_limits<float>::infinity();
      else if (!parse_java_float(v, &f)) return false;
      w.append<float>(f);
      return true;
    }
    case Kind::kBoolean: {
      bool b;
      if (!parse_java_boolean(v, &b)) return false;
      w.append_bool(b);
      return true;
    }
    case Kind::kDecimal: {
      int128_t d;
      if (!parse_locale_decimal(v, *options_.locale, t.precision, t.scale, &d)) return false;
      w.append<int128_t>(d);
      return true;
    }
    case Kind::kDate: {
      int32_t d;
      if (!(date_format_ ? date_format_->parse_date(v, &d) : parse_date(v, &d))) return false;
      w.append<int32_t>(d);
      return true;
    }
    case Kind::kTimestamp: {
      int64_t ts;
      if (!(timestamp_format_ ? timestamp_format_->parse_timestamp(v, zone_, &ts)
                              : parse_timestamp(v, zone_, &ts))) {
        return false;
      }
      w.append<int64_t>(ts);
      return true;
    }
    case Kind::kTimestampNtz: {
      int64_t ts;
      if (!(timestamp_ntz_format_ ? timestamp_ntz_format_->parse_timestamp_ntz(v, &ts)
                                  : parse_timestamp_ntz(v, &ts))) {
        return false;
      }
      w.append<int64_t>(ts);
      return true;
    }
  }
  return false;
}

}  // namespace ember::io
