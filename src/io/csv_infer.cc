#include "io/csv_infer.h"

#include <algorithm>

#include "common/datetime.h"
#include "io/text_parse.h"

namespace ember::io {

using K = InferredType::Kind;

TypePtr InferredType::to_type() const {
  switch (kind) {
    case kInt: return DataType::int_();
    case kLong: return DataType::long_();
    case kDecimal: return DataType::decimal(precision, scale);
    case kDouble: return DataType::double_();
    case kDate: return DataType::date();
    case kTimestampNtz: return DataType::timestamp_ntz();
    case kTimestamp: return DataType::timestamp();
    case kBoolean: return DataType::boolean();
    case kNull:
    case kString: break;
  }
  return DataType::string();
}

CsvTypeInference::CsvTypeInference(const CsvOptions& options, const TimeZone& zone)
    : options_(options),
      zone_(zone),
      date_format_(options.date_format.value_or("yyyy-MM-dd"), options.locale) {
  if (options.timestamp_format) {
    timestamp_format_ = std::make_unique<DateTimePattern>(*options.timestamp_format, options.locale);
  }
  if (options.timestamp_ntz_format) {
    timestamp_ntz_format_ =
        std::make_unique<DateTimePattern>(*options.timestamp_ntz_format, options.locale);
  }
}

InferredType CsvTypeInference::infer(InferredType so_far, std::string_view v) const {
  if (so_far.kind == K::kString) return so_far;  // nothing widens a string
  if (v.empty() || v == options_.null_value) return so_far;
  InferredType t;
  switch (so_far.kind) {
    case K::kNull:
    case K::kInt: t = try_int(v); break;
    case K::kLong: t = try_long(v); break;
    case K::kDecimal: t = try_decimal(v); break;
    case K::kDouble: t = try_double(v); break;
    case K::kDate: t = try_date(v); break;
    case K::kTimestampNtz: t = try_timestamp_ntz(v); break;
    case K::kTimestamp: t = try_timestamp(v); break;
    case K::kBoolean: t = try_boolean(v); break;
    case K::kString: return so_far;
  }
  return t == so_far ? so_far : merge(so_far, t);
}

InferredType CsvTypeInference::try_int(std::string_view v) const {
  int64_t x;
  if (parse_java_integer(v, INT32_MIN, INT32_MAX, &x)) return {K::kInt};
  return try_long(v);
}

InferredType CsvTypeInference::try_long(std::string_view v) const {
  int64_t x;
  if (parse_java_integer(v, INT64_MIN, INT64_MAX, &x)) return {K::kLong};
  return try_decimal(v);
}

InferredType CsvTypeInference::try_decimal(std::string_view v) const {
  // Only values without a fraction become decimals (integers too large for bigint); a
  // negative scale (an exponent) is not a valid decimal type.
  DecimalText d;
  std::string text;
  // Outside en-US, Spark reads the number with the locale's decimal symbols ("1.000" is a
  // thousand in de-DE).
  const bool us = options_.locale->is_us();
  if ((us || locale_number_text(v, *options_.locale, &text)) && parse_big_decimal(us ? v : text, &d) &&
      d.scale == 0 && d.precision <= DataType::kMaxDecimalPrecision) {
    return {K::kDecimal, d.precision, 0};
  }
  return try_double(v);
}

InferredType CsvTypeInference::try_double(std::string_view v) const {
  double x;
  if (parse_java_double(v, &x) || v == options_.nan_value || v == options_.positive_inf ||
      v == options_.negative_inf) {
    return {K::kDouble};
  }
  return options_.prefer_date ? try_date(v) : try_timestamp_ntz(v);
}

InferredType CsvTypeInference::try_date(std::string_view v) const {
  int32_t d;
  if (date_format_.parse_date(v, &d)) return {K::kDate};
  return try_timestamp_ntz(v);
}

InferredType CsvTypeInference::try_timestamp_ntz(std::string_view v) const {
  if (options_.infer_ntz) {
    int64_t t;
    const bool ok = timestamp_ntz_format_ ? timestamp_ntz_format_->parse_timestamp_ntz(v, &t)
                                          : parse_timestamp_ntz(v, &t);
    if (ok) return {K::kTimestampNtz};
  }
  return try_timestamp(v);
}

InferredType CsvTypeInference::try_timestamp(std::string_view v) const {
  int64_t t;
  const bool ok = timestamp_format_ ? timestamp_format_->parse_timestamp(v, zone_, &t)
                                    : parse_timestamp(v, zone_, &t);
  if (ok) return {K::kTimestamp};
  return try_boolean(v);
}

InferredType CsvTypeInference::try_boolean(std::string_view v) const {
  bool b;
  if (parse_java_boolean(v, &b)) return {K::kBoolean};
  return {K::kString};
}

namespace {

bool integral(K k) { return k == K::kInt || k == K::kLong; }
bool datetime(K k) { return k == K::kDate || k == K::kTimestampNtz || k == K::kTimestamp; }
int integral_digits(K k) { return k == K::kInt ? 10 : 20; }

}  // namespace

std::optional<InferredType> CsvTypeInference::compatible(InferredType a, InferredType b) {
  if (a == b) return a;
  if (a.kind == K::kNull) return b;
  if (b.kind == K::kNull) return a;
  auto rank = [](K k) { return k == K::kInt ? 0 : k == K::kLong ? 1 : k == K::kDouble ? 2 : -1; };
  if (rank(a.kind) >= 0 && rank(b.kind) >= 0) return rank(a.kind) >= rank(b.kind) ? a : b;
  if (datetime(a.kind) && datetime(b.kind)) {
    if (a.kind == K::kTimestamp || b.kind == K::kTimestamp) return InferredType{K::kTimestamp};
    return InferredType{K::kTimestampNtz};
  }
  if (a.kind == K::kString || b.kind == K::kString) return InferredType{K::kString};
  if (integral(a.kind) && b.kind == K::kDecimal) {
    if (b.precision - b.scale >= integral_digits(a.kind)) return b;
    return compatible({K::kDecimal, integral_digits(a.kind), 0}, b);
  }
  if (a.kind == K::kDecimal && integral(b.kind)) return compatible(b, a);
  if ((a.kind == K::kDouble && b.kind == K::kDecimal) ||
      (a.kind == K::kDecimal && b.kind == K::kDouble)) {
    return InferredType{K::kDouble};
  }
  if (a.kind == K::kDecimal && b.kind == K::kDecimal) {
    const int scale = std::max(a.scale, b.scale);
    const int range = std::max(a.precision - a.scale, b.precision - b.scale);
    if (range + scale > DataType::kMaxDecimalPrecision) return InferredType{K::kDouble};
    return InferredType{K::kDecimal, range + scale, scale};
  }
  return std::nullopt;
}

}  // namespace ember::io
