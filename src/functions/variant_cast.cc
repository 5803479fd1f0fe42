// Conversions between VARIANT and the other Spark types: CAST in both directions,
// variant_get's target types and to_variant_object.

#include <cmath>
#include <limits>

#include "common/error.h"
#include "common/timezone.h"
#include "functions/cast.h"
#include "functions/variant_util.h"

namespace ember::functions {
namespace {

bool is_interval(const DataType& t) {
  return t.id() == TypeId::kYearMonthInterval || t.id() == TypeId::kDayTimeInterval;
}

/// Spark's ANSI cast table (Cast.canAnsiCast) for the atomic pairs a variant scalar meets.
bool ansi_castable(const DataType& from, const DataType& to) {
  const TypeId f = from.id(), t = to.id();
  if (from.equals(to) || t == TypeId::kString || f == TypeId::kString) return true;
  auto numeric_or_bool = [](const DataType& x) { return x.is_numeric() || x.id() == TypeId::kBoolean; };
  if (numeric_or_bool(from) && numeric_or_bool(to)) return true;
  if (from.is_datetime() && to.is_datetime()) return true;
  if (f == TypeId::kTimestamp && to.is_numeric()) return true;
  if (from.is_numeric() && t == TypeId::kTimestamp) return true;
  return false;
}

/// A variant scalar as a SQL value of its own type (decimals without trailing zeros).
void scalar_source(const variant::Ref& v, TypePtr* type, Value* value) {
  switch (v.kind()) {
    case variant::Kind::kBoolean: *type = DataType::boolean(); *value = Value::boolean(v.get_bool()); return;
    case variant::Kind::kLong: *type = DataType::long_(); *value = Value::integer(v.get_long()); return;
    case variant::Kind::kDouble: *type = DataType::double_(); *value = Value::floating(v.get_double()); return;
    case variant::Kind::kFloat: *type = DataType::float_(); *value = Value::floating(v.get_float()); return;
    case variant::Kind::kDecimal: {
      int scale;
      __int128 u = v.get_decimal(&scale);
      int digits = variant::normalize_decimal(&u, &scale);
      *type = DataType::decimal(std::max(digits, scale), scale);
      *value = Value::decimal(u);
      return;
    }
    case variant::Kind::kDate: *type = DataType::date(); *value = Value::integer(v.get_long()); return;
    case variant::Kind::kTimestamp: *type = DataType::timestamp(); *value = Value::integer(v.get_long()); return;
    case variant::Kind::kTimestampNtz:
      *type = DataType::timestamp_ntz();
      *value = Value::integer(v.get_long());
      return;
    case variant::Kind::kBinary: *type = DataType::binary(); *value = Value::bytes(std::string(v.get_string())); return;
    case variant::Kind::kString: *type = DataType::string(); *value = Value::bytes(std::string(v.get_string())); return;
    default: EMBER_UNREACHABLE("scalar_source: not a scalar");
  }
}

struct VariantCaster {
  const EvalContext& ctx;
  bool try_;
  const TimeZone& zone;

  void invalid(const variant::Ref& v, const TypePtr& to, ColumnBuilder& out) const {
    if (try_) {
      out.append_null();
      return;
    }
    std::string text;
    variant::to_json(v, zone, text);
    const std::string type = "\"" + to->sql() + "\"";
    throw SparkError(ErrorKind::kRuntime, "INVALID_VARIANT_CAST",
                     "The variant value `" + text + "` cannot be cast into `" + type +
                         "`. Please use `try_variant_get` instead.",
                     {{"value", text}, {"dataType", type}}, "22023");
  }

  void cast(const variant::Ref& v, const TypePtr& to, ColumnBuilder& out) const {
    if (to->id() == TypeId::kVariant) {
      variant::Builder b;
      b.append_variant(v);
      append_variant(out, b);
      return;
    }
    const variant::Kind k = v.kind();
    if (k == variant::Kind::kNull) {
      out.append_null();
      return;
    }
    switch (to->id()) {
      case TypeId::kStruct: {
        if (k != variant::Kind::kObject) return invalid(v, to, out);
        const auto& fields = to->fields();
        for (size_t f = 0; f < fields.size(); ++f) {
          variant::Ref fv = v;
          if (v.find_field(fields[f].name, &fv)) cast(fv, fields[f].type, out.child(f));
          else out.child(f).append_null();
        }
        out.close_struct(true);
        return;
      }
      case TypeId::kArray: {
        if (k != variant::Kind::kArray) return invalid(v, to, out);
        uint32_t n = v.size();
        for (uint32_t i = 0; i < n; ++i) cast(v.element(i), to->element_type(), out.child(0));
        out.close_list();
        return;
      }
      case TypeId::kMap: {
        if (k != variant::Kind::kObject) return invalid(v, to, out);
        ColumnBuilder& entries = out.child(0);
        uint32_t n = v.size();
        for (uint32_t i = 0; i < n; ++i) {
          std::string_view key;
          variant::Ref fv = v.field_at(i, &key);
          entries.child(0).append_bytes(key);
          cast(fv, to->value_type(), entries.child(1));
          entries.close_struct(true);
        }
        out.close_list();
        return;
      }
      default: break;
    }
    if (k == variant::Kind::kObject || k == variant::Kind::kArray) {
      if (to->id() != TypeId::kString) return invalid(v, to, out);
      std::string text;
      variant::to_json(v, zone, text);
      out.append_bytes(text);
      return;
    }
    // The common pairs directly; the others through CAST from the value's own type.
    if (k == variant::Kind::kString && to->id() == TypeId::kString) return out.append_bytes(v.get_string());
    if (k == variant::Kind::kLong && to->id() == TypeId::kLong) return out.append<int64_t>(v.get_long());
    if (k == variant::Kind::kBoolean && to->id() == TypeId::kBoolean) return out.append_bool(v.get_bool());
    if (k == variant::Kind::kDouble && to->id() == TypeId::kDouble) return out.append<double>(v.get_double());
    if (k == variant::Kind::kLong && to->id() == TypeId::kInt) {
      int64_t x = v.get_long();
      if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())
        return invalid(v, to, out);
      return out.append<int32_t>(static_cast<int32_t>(x));
    }
    TypePtr st;
    Value sv;
    scalar_source(v, &st, &sv);
    if (to->id() == TypeId::kTimestamp && (k == variant::Kind::kLong || k == variant::Kind::kDecimal)) {
      // Seconds since the epoch, exactly (Spark converts these itself rather than by CAST).
      __int128 micros;
      if (k == variant::Kind::kLong) {
        micros = static_cast<__int128>(sv.as_int()) * 1000000;
      } else {
        micros = sv.as_decimal() * 1000000 / pow10_int128(st->scale());
      }
      if (micros < std::numeric_limits<int64_t>::min() || micros > std::numeric_limits<int64_t>::max())
        return invalid(v, to, out);
      return out.append<int64_t>(static_cast<int64_t>(micros));
    }
    if (to->id() == TypeId::kTimestamp && (k == variant::Kind::kDouble || k == variant::Kind::kFloat)) {
      // Seconds with a fraction; non-finite values and overflows do not convert.
      double micros = (k == variant::Kind::kDouble ? v.get_double() : v.get_float()) * 1e6;
      if (!std::isfinite(micros) || micros < -9.223372036854775808e18 || micros >= 9.223372036854775808e18)
        return invalid(v, to, out);
      return out.append<int64_t>(static_cast<int64_t>(micros));
    }
    if (!ansi_castable(*st, *to)) return invalid(v, to, out);
    EvalContext c = ctx;
    c.ansi = true;
    ColumnPtr r = cast_column(Column::constant(st, sv, 1), to, c, /*try_cast=*/true);
    if (r->is_null(0)) return invalid(v, to, out);
    out.append_from(*r, 0);
  }
};

}  // namespace

void append_variant(ColumnBuilder& out, const variant::Builder& b) {
  out.child(0).append_bytes(b.value());
  out.child(1).append_bytes(b.metadata());
  out.close_struct(true);
}

void throw_malformed_variant() {
  throw SparkError(ErrorKind::kRuntime, "MALFORMED_VARIANT",
                   "Variant binary is malformed. Please check the data source is valid.", {}, "22023");
}

bool can_cast_from_variant(const DataType& to) {
  if (is_interval(to)) return false;
  switch (to.id()) {
    case TypeId::kArray: return can_cast_from_variant(*to.element_type());
    case TypeId::kMap: return to.key_type()->id() == TypeId::kString && can_cast_from_variant(*to.value_type());
    case TypeId::kStruct:
      for (auto& f : to.fields())
        if (!can_cast_from_variant(*f.type)) return false;
      return true;
    default: return true;
  }
}

bool can_cast_to_variant(const DataType& from) {
  if (is_interval(from) || from.id() == TypeId::kStruct || from.id() == TypeId::kMap) return false;
  if (from.id() == TypeId::kArray) return can_cast_to_variant(*from.element_type());
  return true;
}

void cast_variant_value(const variant::Ref& v, const TypePtr& to, const EvalContext& ctx, bool try_cast,
                        ColumnBuilder& out) {
  VariantCaster c{ctx, try_cast, TimeZone::get(ctx.time_zone)};
  try {
    c.cast(v, to, out);
  } catch (const variant::MalformedVariant&) {
    throw_malformed_variant();
  }
}

ColumnPtr cast_from_variant(const ColumnPtr& in, const TypePtr& to, const EvalContext& ctx, bool try_cast) {
  const int64_t n = in->length();
  VariantCaster c{ctx, try_cast, TimeZone::get(ctx.time_zone)};
  ColumnBuilder out(to, n);
  try {
    for (int64_t i = 0; i < n; ++i) {
      if (in->is_null(i)) out.append_null();
      else c.cast(variant_at(*in, i), to, out);
    }
  } catch (const variant::MalformedVariant&) {
    throw_malformed_variant();
  }
  return out.finish();
}

void append_as_variant(variant::Builder& b, const Column& c, int64_t row) {
  if (c.type()->id() == TypeId::kNull || c.is_null(row)) {
    b.append_null();
    return;
  }
  const DataType& t = *c.type();
  switch (t.id()) {
    case TypeId::kBoolean: b.append_bool(c.bool_at(row)); return;
    case TypeId::kByte: b.append_long(c.values<int8_t>()[row]); return;
    case TypeId::kShort: b.append_long(c.values<int16_t>()[row]); return;
    case TypeId::kInt: b.append_long(c.values<int32_t>()[row]); return;
    case TypeId::kLong: b.append_long(c.values<int64_t>()[row]); return;
    case TypeId::kFloat: b.append_float(c.values<float>()[row]); return;
    case TypeId::kDouble: b.append_double(c.values<double>()[row]); return;
    case TypeId::kDecimal: b.append_decimal(c.values<int128_t>()[row], t.scale()); return;
    case TypeId::kString: b.append_string(c.string_at(row)); return;
    case TypeId::kBinary: b.append_binary(c.string_at(row)); return;
    case TypeId::kDate: b.append_date(c.values<int32_t>()[row]); return;
    case TypeId::kTimestamp: b.append_timestamp(c.values<int64_t>()[row]); return;
    case TypeId::kTimestampNtz: b.append_timestamp_ntz(c.values<int64_t>()[row]); return;
    case TypeId::kVariant: b.append_variant(variant_at(c, row)); return;
    case TypeId::kArray: {
      const int32_t* o = c.offsets();
      size_t start = b.position();
      std::vector<size_t> starts;
      for (int32_t j = o[row]; j < o[row + 1]; ++j) {
        starts.push_back(b.position());
        append_as_variant(b, *c.child(0), j);
      }
      b.finish_array(start, starts);
      return;
    }
    case TypeId::kStruct: {
      size_t start = b.position();
      std::vector<variant::Builder::Field> fields;
      for (size_t f = 0; f < t.fields().size(); ++f) {
        const std::string& name = t.fields()[f].name;
        fields.push_back({name, b.add_key(name), b.position() - start});
        append_as_variant(b, *c.child(f), row);
      }
      std::string dup;
      if (!b.finish_object(start, fields, &dup))
        throw SparkError(ErrorKind::kRuntime, "VARIANT_DUPLICATE_KEY",
                         "Failed to build variant because of a duplicate object key `" + dup + "`.",
                         {{"key", dup}}, "22023");
      return;
    }
    case TypeId::kMap: {
      const int32_t* o = c.offsets();
      const Column& entries = *c.child(0);
      size_t start = b.position();
      std::vector<variant::Builder::Field> fields;
      for (int32_t j = o[row]; j < o[row + 1]; ++j) {
        std::string_view key = entries.child(0)->string_at(j);
        fields.push_back({key, b.add_key(key), b.position() - start});
        append_as_variant(b, *entries.child(1), j);
      }
      std::string dup;
      if (!b.finish_object(start, fields, &dup))
        throw SparkError(ErrorKind::kRuntime, "VARIANT_DUPLICATE_KEY",
                         "Failed to build variant because of a duplicate object key `" + dup + "`.",
                         {{"key", dup}}, "22023");
      return;
    }
    default:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: converting " + t.sql() + " to VARIANT.", {}, "0A000");
  }
}

ColumnPtr cast_to_variant(const ColumnPtr& in) {
  const int64_t n = in->length();
  ColumnBuilder out(DataType::variant(), n);
  variant::Builder b;
  for (int64_t i = 0; i < n; ++i) {
    if (in->type()->id() == TypeId::kNull || in->is_null(i)) {
      out.append_null();
      continue;
    }
    b.clear();
    try {
      append_as_variant(b, *in, i);
    } catch (const variant::MalformedVariant&) {
      throw_malformed_variant();
    }
    append_variant(out, b);
  }
  return out.finish();
}

}  // namespace ember::functions
