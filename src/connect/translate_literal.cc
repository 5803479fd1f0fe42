// Literal messages to Ember values.

#include <algorithm>
#include <cctype>
#include <limits>

#include "common/datetime.h"
#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "functions/decimal_util.h"

// PySpark 4.3 still describes array, map and struct literals with the fields the protocol
// marks deprecated (element_type, key_type, struct_type); newer clients send `data_type`.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace ember::connect {

namespace pb = spark::connect;

namespace {

[[noreturn]] void bad_decimal(const std::string& text) {
  throw SparkError(ErrorKind::kNumberFormat, "CAST_INVALID_INPUT",
                   "The value '" + text +
                       "' of the type \"STRING\" cannot be cast to \"DECIMAL\" "
                       "because it is malformed.",
                   {{"expression", "'" + text + "'"},
                    {"sourceType", "\"STRING\""},
                    {"targetType", "\"DECIMAL\""},
                    {"ansiConfig", "\"spark.sql.ansi.enabled\""}},
                   "22018");
}

/// A decimal string as Java's BigDecimal reads it: unscaled digits and a scale (which may be
/// negative after an exponent).
struct ParsedDecimal {
  bool negative = false;
  std::string digits;  // without leading zeros; "0" for zero
  int scale = 0;
};

ParsedDecimal parse_decimal_text(const std::string& text) {
  ParsedDecimal d;
  size_t i = 0;
  const size_t n = text.size();
  if (i < n && (text[i] == '+' || text[i] == '-')) d.negative = text[i++] == '-';
  bool any = false, dot = false;
  int frac = 0;
  for (; i < n; ++i) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any = true;
      d.digits += c;
      if (dot) ++frac;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) bad_decimal(text);
  long exp = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
    if (i >= n) bad_decimal(text);
    for (; i < n; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) bad_decimal(text);
      exp = exp * 10 + (text[i] - '0');
      if (exp > 100000) bad_decimal(text);
    }
    if (neg) exp = -exp;
  }
  if (i != n) bad_decimal(text);
  size_t first = d.digits.find_first_not_of('0');
  d.digits = first == std::string::npos ? "0" : d.digits.substr(first);
  d.scale = frac - static_cast<int>(exp);
  return d;
}

/// The value of `d` with a scale of 0 or more, as Spark's Decimal holds it (1E+3 is 1000).
/// Its digits fit: a value of more than 38 digits fails the precision check first.
int128_t own_unscaled(const ParsedDecimal& d, int* scale) {
  std::string digits = d.digits;
  *scale = d.scale;
  if (*scale < 0) {
    digits.append(static_cast<size_t>(-*scale), '0');
    *scale = 0;
  }
  int128_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return d.negative ? -v : v;
}

/// The value of `d` at `scale` (never below its own), checked against `precision` digits as
/// Spark's Decimal.changePrecision checks it: a value with more integral digits than the type
/// allows fails with NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION, whatever the ANSI mode.
int128_t rescale(const ParsedDecimal& d, int scale, int precision) {
  int own_scale = 0;
  const int128_t own = own_unscaled(d, &own_scale);
  // The digits the value needs at `scale`: its own (none for zero) and the zeros scaling adds.
  const int128_t magnitude = own < 0 ? -own : own;
  const int digits = (own == 0 ? 0 : static_cast<int>(int128_to_string(magnitude).size())) + (scale - own_scale);
  if (digits > precision)
    functions::decimal_out_of_range_text(functions::java_decimal_string(own, own_scale), precision, scale);
  int128_t v = own;
  for (int i = own_scale; i < scale; ++i) v *= 10;
  return v;
}

TypedValue decimal_literal(const pb::Expression::Literal::Decimal& dec) {
  ParsedDecimal d = parse_decimal_text(dec.value());
  // The value's own precision and scale (BigDecimal's, with a negative scale made zero as
  // Spark's Decimal does), widened to the precision and scale the client sent: Spark Connect
  // never narrows a literal to its declared type, so 1.50 sent as DECIMAL(10,0) is
  // DECIMAL(10,2).
  int precision = static_cast<int>(d.digits.size());
  int scale = d.scale;
  if (scale < 0) {
    precision -= scale;
    scale = 0;
  }
  if (dec.has_precision()) precision = std::max(precision, static_cast<int>(dec.precision()));
  if (dec.has_scale()) scale = std::max(scale, static_cast<int>(dec.scale()));
  precision = std::max(precision, scale);
  if (precision < 1 || precision > DataType::kMaxDecimalPrecision || scale < 0 ||
      scale > precision) {
    throw SparkError(
        ErrorKind::kArithmetic, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
        "Decimal precision " + std::to_string(precision) + " exceeds max precision 38.",
        {{"precision", std::to_string(precision)}, {"maxPrecision", "38"}}, "22003");
  }
  return {Value::decimal(rescale(d, scale, precision)),
          DataType::decimal(precision, scale)};
}

[[noreturn]] void unsupported_literal(const std::string& what) {
  throw_invalid_plan("UNSUPPORTED_LITERAL_TYPE", "Unsupported Literal Type: " + what,
                     {{"typeInfo", what}});
}

template <typename List, typename Make>
TypedValue specialized(const List& values, TypePtr element, Make make) {
  Value::List items;
  items.reserve(static_cast<size_t>(values.size()));
  for (const auto& v : values) items.push_back(make(v));
  return {Value::list(std::move(items)), DataType::array(std::move(element), false)};
}

}  // namespace

TypedValue literal_from_proto(const pb::Expression::Literal& lit) {
  using L = pb::Expression::Literal;
  switch (lit.literal_type_case()) {
    case L::kNull:
      return {Value(), type_from_proto(lit.null())};
    case L::kBinary:
      return {Value::bytes(lit.binary()), DataType::binary()};
    case L::kBoolean:
      return {Value::boolean(lit.boolean()), DataType::boolean()};
    case L::kByte:
      return {Value::integer(lit.byte()), DataType::byte()};
    case L::kShort:
      return {Value::integer(lit.short_()), DataType::short_()};
    case L::kInteger:
      return {Value::integer(lit.integer()), DataType::int_()};
    case L::kLong:
      return {Value::integer(lit.long_()), DataType::long_()};
    case L::kFloat:
      return {Value::floating(lit.float_()), DataType::float_()};
    case L::kDouble:
      return {Value::floating(lit.double_()), DataType::double_()};
    case L::kDecimal:
      return decimal_literal(lit.decimal());
    case L::kString:
      return {Value::bytes(lit.string()), DataType::string()};
    case L::kDate:
      return {Value::integer(lit.date()), DataType::date()};
    case L::kTimestamp:
      return {Value::integer(lit.timestamp()), DataType::timestamp()};
    case L::kTimestampNtz:
      return {Value::integer(lit.timestamp_ntz()), DataType::timestamp_ntz()};
    case L::kYearMonthInterval: {
      TypePtr t =
          lit.has_data_type() ? type_from_proto(lit.data_type()) : DataType::year_month_interval();
      return {Value::integer(lit.year_month_interval()), t};
    }
    case L::kDayTimeInterval: {
      TypePtr t =
          lit.has_data_type() ? type_from_proto(lit.data_type()) : DataType::day_time_interval();
      return {Value::integer(lit.day_time_interval()), t};
    }
    case L::kArray: {
      const auto& a = lit.array();
      TypePtr type;
      if (lit.has_data_type() && lit.data_type().has_array()) {
        type = type_from_proto(lit.data_type());
      } else if (a.has_element_type()) {
        type = DataType::array(type_from_proto(a.element_type()), true);
      } else {
        throw_invalid_plan("ARRAY_LITERAL_MISSING_DATA_TYPE",
                           "Data type information is missing in the array literal.");
      }
      Value::List items;
      for (const auto& e : a.elements()) items.push_back(literal_from_proto(e).value);
      return {Value::list(std::move(items)), type};
    }
    case L::kMap: {
      const auto& m = lit.map();
      TypePtr type;
      if (lit.has_data_type() && lit.data_type().has_map()) {
        type = type_from_proto(lit.data_type());
      } else if (m.has_key_type() && m.has_value_type()) {
        type = DataType::map(type_from_proto(m.key_type()), type_from_proto(m.value_type()), true);
      } else {
        throw_invalid_plan("MAP_LITERAL_MISSING_DATA_TYPE",
                           "Data type information is missing in the map literal.");
      }
      if (m.keys_size() != m.values_size()) {
        throw_invalid_plan("ASSERTION_FAILURE",
                           "Map literal has different numbers of keys and values",
                           {{"message", "Map literal has different numbers of keys and values"}});
      }
      Value::List entries;
      for (int i = 0; i < m.keys_size(); ++i) {
        entries.push_back(Value::list(
            {literal_from_proto(m.keys(i)).value, literal_from_proto(m.values(i)).value}));
      }
      return {Value::list(std::move(entries)), type};
    }
    case L::kStruct: {
      const auto& s = lit.struct_();
      TypePtr type;
      if (lit.has_data_type()) {
        type = type_from_proto(lit.data_type());
      } else if (s.has_struct_type()) {
        type = type_from_proto(s.struct_type());
      } else {
        throw_invalid_plan("STRUCT_LITERAL_MISSING_DATA_TYPE",
                           "Data type information is missing in the struct literal.");
      }
      if (type->id() != TypeId::kStruct ||
          type->fields().size() != static_cast<size_t>(s.elements_size())) {
        throw_invalid_plan("ASSERTION_FAILURE", "Struct literal does not match its type",
                           {{"message", "Struct literal does not match its type"}});
      }
      Value::List fields;
      for (const auto& e : s.elements()) fields.push_back(literal_from_proto(e).value);
      return {Value::list(std::move(fields)), type};
    }
    case L::kSpecializedArray: {
      const auto& a = lit.specialized_array();
      switch (a.value_type_case()) {
        case L::SpecializedArray::kBools:
          return specialized(a.bools().values(), DataType::boolean(),
                             [](bool v) { return Value::boolean(v); });
        case L::SpecializedArray::kInts:
          return specialized(a.ints().values(), DataType::int_(),
                             [](int32_t v) { return Value::integer(v); });
        case L::SpecializedArray::kLongs:
          return specialized(a.longs().values(), DataType::long_(),
                             [](int64_t v) { return Value::integer(v); });
        case L::SpecializedArray::kFloats:
          return specialized(a.floats().values(), DataType::float_(),
                             [](float v) { return Value::floating(v); });
        case L::SpecializedArray::kDoubles:
          return specialized(a.doubles().values(), DataType::double_(),
                             [](double v) { return Value::floating(v); });
        case L::SpecializedArray::kStrings:
          return specialized(a.strings().values(), DataType::string(),
                             [](const std::string& v) { return Value::bytes(v); });
        default:
          break;
      }
      throw_invalid_plan("ARRAY_LITERAL_NOT_SET", "Array literal is not set.");
    }
    case L::kCalendarInterval: {
      const auto& i = lit.calendar_interval();
      return {Value::calendar_interval({i.months(), i.days(), i.microseconds()}), DataType::calendar_interval()};
    }
    case L::kTime: {
      const int64_t nanos = lit.time().nano();
      const int precision =
          lit.time().has_precision() ? lit.time().precision() : DataType::kDefaultTimePrecision;
      if (nanos < 0 || nanos >= kNanosPerDay || precision < 0 ||
          precision > DataType::kMaxTimePrecision) {
        throw_invalid_plan("ASSERTION_FAILURE", "Time literal out of range",
                           {{"message", "Time literal out of range"}});
      }
      return {Value::integer(nanos), DataType::time(precision)};
    }
    case L::kTimestampNtzNanos:
      unsupported_literal("TimestampNTZType(9)");
    case L::kTimestampLtzNanos:
      unsupported_literal("TimestampLTZType(9)");
    case L::LITERAL_TYPE_NOT_SET:
      break;
  }
  throw_invalid_plan(
      "INVALID_ONE_OF_FIELD_NOT_SET",
      "This oneOf field in spark.connect.Expression.Literal is not set: literal_type",
      {{"fullName", "spark.connect.Expression.Literal"}, {"name", "literal_type"}});
}

}  // namespace ember::connect

namespace ember::connect {

void literal_to_proto(const Value& v, const DataType& type, pb::Expression::Literal* out) {
  if (v.is_null()) {
    type_to_proto(type, out->mutable_null());
    return;
  }
  switch (type.id()) {
    case TypeId::kBoolean: out->set_boolean(v.as_bool()); return;
    case TypeId::kByte: out->set_byte(static_cast<int32_t>(v.as_int())); return;
    case TypeId::kShort: out->set_short_(static_cast<int32_t>(v.as_int())); return;
    case TypeId::kInt: out->set_integer(static_cast<int32_t>(v.as_int())); return;
    case TypeId::kLong: out->set_long_(v.as_int()); return;
    case TypeId::kFloat: out->set_float_(static_cast<float>(v.as_double())); return;
    case TypeId::kDouble: out->set_double_(v.as_double()); return;
    case TypeId::kDecimal: {
      auto* d = out->mutable_decimal();
      d->set_value(decimal_to_string(v.as_decimal(), type.scale()));
      d->set_precision(type.precision());
      d->set_scale(type.scale());
      return;
    }
    case TypeId::kString: out->set_string(v.as_bytes()); return;
    case TypeId::kBinary: out->set_binary(v.as_bytes()); return;
    case TypeId::kDate: out->set_date(static_cast<int32_t>(v.as_int())); return;
    case TypeId::kTimestamp: out->set_timestamp(v.as_int()); return;
    case TypeId::kTimestampNtz: out->set_timestamp_ntz(v.as_int()); return;
    case TypeId::kYearMonthInterval:
      out->set_year_month_interval(static_cast<int32_t>(v.as_int()));
      type_to_proto(type, out->mutable_data_type());
      return;
    case TypeId::kDayTimeInterval:
      out->set_day_time_interval(v.as_int());
      type_to_proto(type, out->mutable_data_type());
      return;
    case TypeId::kArray: {
      auto* a = out->mutable_array();
      type_to_proto(*type.element_type(), a->mutable_element_type());
      for (const Value& e : v.as_list()) literal_to_proto(e, *type.element_type(), a->add_elements());
      return;
    }
    case TypeId::kMap: {
      auto* m = out->mutable_map();
      type_to_proto(*type.key_type(), m->mutable_key_type());
      type_to_proto(*type.value_type(), m->mutable_value_type());
      for (const Value& entry : v.as_list()) {
        literal_to_proto(entry.as_list()[0], *type.key_type(), m->add_keys());
        literal_to_proto(entry.as_list()[1], *type.value_type(), m->add_values());
      }
      return;
    }
    case TypeId::kStruct: {
      auto* s = out->mutable_struct_();
      type_to_proto(type, s->mutable_struct_type());
      const auto& fields = type.fields();
      for (size_t i = 0; i < fields.size(); ++i)
        literal_to_proto(v.as_list()[i], *fields[i].type, s->add_elements());
      return;
    }
    default:
      break;
  }
  throw_not_supported("A literal of type " + type.simple_string());
}

}  // namespace ember::connect
