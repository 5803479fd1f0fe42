// Scalar functions of numbers that fit no other family: nullifzero, zeroifnull, the bitwise
// NOT operator (~, which PySpark's bitwise_not calls), bit_get/getbit, width_bucket and conv
// (Spark's NumberConverter: through an unsigned 64-bit value, with its overflow rules).

#include <cmath>
#include <limits>

#include "functions/collection_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

[[noreturn]] void numeric_expected(const std::string& fn, const Types& a, size_t k) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal_word(k) + " parameter requires the \"NUMERIC\" type, however \"" +
                          a[k]->sql() + "\" has the type \"" + a[k]->sql() + "\".",
                      call_sql(fn, a));
}

// ---------------------------------------------------------------------------------------------
// nullifzero / zeroifnull.

ColumnPtr nullifzero_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  if (a[0]->type()->id() == TypeId::kNull) return a[0];
  return dispatch_fixed(a[0]->type()->id(), [&]<typename T>() {
    const T* v = a[0]->values<T>();
    ColumnBuilder b(sig.result_type, n);
    for (int64_t i = 0; i < n; ++i) {
      if (a[0]->is_null(i) || v[i] == T{})
        b.append_null();
      else
        b.append<T>(v[i]);
    }
    return b.finish();
  });
}

ColumnPtr zeroifnull_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return dispatch_fixed(sig.result_type->id(), [&]<typename T>() {
    ColumnBuilder b(sig.result_type, n);
    const bool typed = a[0]->type()->id() != TypeId::kNull;
    for (int64_t i = 0; i < n; ++i)
      b.append<T>(typed && a[0]->is_valid(i) ? a[0]->values<T>()[i] : T{});
    return b.finish();
  });
}

// ---------------------------------------------------------------------------------------------
// ~ and bit_get.

ColumnPtr bitwise_not_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return dispatch_fixed(sig.result_type->id(), [&]<typename T>() -> ColumnPtr {
    if constexpr (std::is_integral_v<T>)
      return unary_fixed<T, T, false>(*a[0], n, sig.result_type, [](T x) { return static_cast<T>(~x); });
    else
      EMBER_UNREACHABLE("~ of a non-integral type");
  });
}

[[noreturn]] void bit_position_error(const std::string& fn, int64_t pos, int bits) {
  throw SparkError(ErrorKind::kRuntime, "INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE",
                   "The value of parameter(s) `pos` in `" + fn + "` is invalid: expects an integer value in [0, " +
                       std::to_string(bits) + "), but got " + std::to_string(pos) + ".",
                   {{"parameter", "`pos`"}, {"functionName", "`" + fn + "`"},
                    {"upper", std::to_string(bits)}, {"invalidValue", std::to_string(pos)}},
                   "22023");
}

ColumnPtr bit_get_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&,
                         const std::string& fn) {
  return dispatch_fixed(a[0]->type()->id(), [&]<typename T>() -> ColumnPtr {
    if constexpr (std::is_integral_v<T>) {
      constexpr int kBits = static_cast<int>(sizeof(T) * 8);
      return binary_fixed<T, int32_t, int8_t, true>(
          *a[0], *a[1], n, sig.result_type, [&](T x, int32_t pos) -> int8_t {
            if (pos < 0 || pos >= kBits) bit_position_error(fn, pos, kBits);
            return static_cast<int8_t>((static_cast<uint64_t>(static_cast<int64_t>(x)) >> pos) & 1);
          });
    } else {
      EMBER_UNREACHABLE("bit_get of a non-integral type");
    }
  });
}

// ---------------------------------------------------------------------------------------------
// width_bucket.

/// The bucket of `v` among `buckets` equal-width buckets over [min, max) (or (max, min] when
/// min > max); 0 below the range and buckets + 1 above it. False (null) for degenerate inputs.
bool width_bucket(double v, double min, double max, int64_t buckets, int64_t* out) {
  if (buckets <= 0 || buckets == std::numeric_limits<int64_t>::max() || std::isnan(v) || min == max ||
      std::isnan(min) || std::isinf(min) || std::isnan(max) || std::isinf(max))
    return false;
  double lower = std::min(min, max), upper = std::max(min, max);
  if (min < max) {
    if (v < lower) *out = 0;
    else if (v >= upper) *out = buckets + 1;
    else *out = static_cast<int64_t>(static_cast<double>(buckets) * (v - lower) / (upper - lower)) + 1;
  } else {
    if (v > upper) *out = 0;
    else if (v <= lower) *out = buckets + 1;
    else *out = static_cast<int64_t>(static_cast<double>(buckets) * (upper - v) / (upper - lower)) + 1;
  }
  return true;
}

ColumnPtr width_bucket_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  ColumnBuilder b(sig.result_type, n);
  const double* v = a[0]->values<double>();
  const double* lo = a[1]->values<double>();
  const double* hi = a[2]->values<double>();
  const int64_t* k = a[3]->values<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    int64_t out = 0;
    bool null = a[0]->is_null(i) || a[1]->is_null(i) || a[2]->is_null(i) || a[3]->is_null(i);
    if (!null && width_bucket(v[i], lo[i], hi[i], k[i], &out))
      b.append<int64_t>(out);
    else
      b.append_null();
  }
  return b.finish();
}

// ---------------------------------------------------------------------------------------------
// conv.

int digit_value(unsigned char c, int radix) {
  int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
  return d < radix ? d : -1;
}

[[noreturn]] void conv_overflow() {
  throw SparkError(ErrorKind::kArithmetic, "ARITHMETIC_OVERFLOW",
                   "Overflow in function conv(). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                   "bypass this error.",
                   {{"message", "Overflow in function conv()"}, {"alternative", ""},
                    {"config", "\"spark.sql.ansi.enabled\""}},
                   "22003");
}

/// Converts `num` from base `from` to base `to` (negative: the result is signed). The digits
/// accumulate into an unsigned 64-bit value; past 2^64 - 1 is an overflow (an error in ANSI
/// mode, all ones otherwise). A negative input is the two's complement of its magnitude.
bool conv_one(std::string_view num, int from, int to, bool ansi, std::string* out) {
  if (from < 2 || from > 36 || std::abs(to) < 2 || std::abs(to) > 36) return false;
  size_t b = 0, e = num.size();
  while (b < e && static_cast<unsigned char>(num[b]) <= ' ') ++b;
  while (e > b && static_cast<unsigned char>(num[e - 1]) <= ' ') --e;
  num = num.substr(b, e - b);
  if (num.empty()) return false;
  bool negative = num[0] == '-';
  uint64_t v = 0;
  const uint64_t bound = (~uint64_t{0} - static_cast<uint64_t>(from)) / static_cast<uint64_t>(from);
  for (size_t i = negative ? 1 : 0; i < num.size(); ++i) {
    int d = digit_value(static_cast<unsigned char>(num[i]), from);
    if (d < 0) break;
    if (v >= bound && (~uint64_t{0} - static_cast<uint64_t>(d)) / static_cast<uint64_t>(from) < v) {
      if (ansi) conv_overflow();
      v = ~uint64_t{0};
      break;
    }
    v = v * static_cast<uint64_t>(from) + static_cast<uint64_t>(d);
  }
  if (negative && to > 0) v = static_cast<int64_t>(v) < 0 ? ~uint64_t{0} : uint64_t{0} - v;
  if (to < 0 && static_cast<int64_t>(v) < 0) {
    v = uint64_t{0} - v;
    negative = true;
  }
  const uint64_t radix = static_cast<uint64_t>(std::abs(to));
  std::string digits;
  do {
    digits += "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % radix];
    v /= radix;
  } while (v != 0);
  if (negative && to < 0) digits += '-';
  out->assign(digits.rbegin(), digits.rend());
  return true;
}

ColumnPtr conv_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  ColumnBuilder b(sig.result_type, n);
  for (int64_t i = 0; i < n; ++i) {
    std::string out;
    if (a[0]->is_null(i) || a[1]->is_null(i) || a[2]->is_null(i) ||
        !conv_one(a[0]->string_at(i), int_arg(a, 1, i), int_arg(a, 2, i), ctx.ansi, &out))
      b.append_null();
    else
      b.append_bytes(out);
  }
  return b.finish();
}

}  // namespace

void register_misc(Registry& r) {
  {
    FunctionDef d = scalar(
        "nullifzero", 1, 1,
        [](const Types& a, const Config&) {
          if (!a[0]->is_numeric() && a[0]->id() != TypeId::kNull) numeric_expected("nullifzero", a, 0);
          Signature s;
          s.arg_types = a;
          s.result_type = a[0]->id() == TypeId::kNull ? DataType::int_() : a[0];
          if (a[0]->id() == TypeId::kNull) s.arg_types = {DataType::int_()};
          s.may_introduce_null = true;
          return s;
        },
        nullifzero_kernel);
    d.usage = "nullifzero(expr) - Returns null if expr is equal to zero, or expr otherwise.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "zeroifnull", 1, 1,
        [](const Types& a, const Config& conf) {
          if (!a[0]->is_numeric() && a[0]->id() != TypeId::kNull) numeric_expected("zeroifnull", a, 0);
          Signature s;
          s.result_type = wider_type(a[0], DataType::int_(), conf.ansi_enabled());
          s.arg_types = {a[0]->id() == TypeId::kNull ? a[0] : s.result_type};
          s.null_if_any_arg_null = false;
          s.never_null = true;
          return s;
        },
        zeroifnull_kernel);
    d.usage = "zeroifnull(expr) - Returns zero if expr is equal to null, or expr otherwise.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "~", 1, 1,
        [](const Types& a, const Config&) {
          if (!a[0]->is_integral() && a[0]->id() != TypeId::kNull)
            throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                "The first parameter requires the \"INTEGRAL\" type, however \"" + a[0]->sql() +
                                    "\" has the type \"" + a[0]->sql() + "\".",
                                "~" + a[0]->sql());
          Signature s;
          s.result_type = a[0]->id() == TypeId::kNull ? DataType::int_() : a[0];
          s.arg_types = {s.result_type};
          return s;
        },
        bitwise_not_kernel);
    d.display_name = "~";
    d.render = [](const std::string&, const std::vector<std::string>& a) { return "~" + a[0]; };
    d.usage = "~ expr - Returns the result of bitwise NOT of expr.";
    r.add(std::move(d));
  }
  for (std::string fn : {"bit_get", "getbit"}) {
    FunctionDef d = scalar(
        fn, 2, 2,
        [fn](const Types& a, const Config&) {
          if (!a[0]->is_integral() && a[0]->id() != TypeId::kNull)
            throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                "The first parameter requires the \"INTEGRAL\" type, however \"" + a[0]->sql() +
                                    "\" has the type \"" + a[0]->sql() + "\".",
                                call_sql(fn, a));
          Signature s = coerce_args(fn, a, "*I", DataType::byte());
          if (a[0]->id() == TypeId::kNull) s.arg_types[0] = DataType::int_();
          return s;
        },
        [fn](const Args& a, int64_t n, const Signature& s, const EvalContext& ctx) {
          return bit_get_kernel(a, n, s, ctx, fn);
        });
    d.may_throw = true;
    d.usage = fn + "(expr, pos) - Returns the value of the bit (0 or 1) at the specified position.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "width_bucket", 4, 4,
        [](const Types& a, const Config&) {
          for (size_t k = 0; k < 3; ++k)
            if (!a[k]->is_numeric() && a[k]->id() != TypeId::kNull && a[k]->id() != TypeId::kString)
              numeric_expected("width_bucket", a, k);
          Signature s = coerce_args("width_bucket", a, "DDDL", DataType::long_());
          s.may_introduce_null = true;
          return s;
        },
        width_bucket_kernel);
    d.usage =
        "width_bucket(value, min_value, max_value, num_bucket) - Returns the bucket number to which value "
        "would be assigned in an equiwidth histogram with num_bucket buckets, in the range min_value to "
        "max_value.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "conv", 3, 3,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("conv", a, "SII", DataType::string());
          s.may_introduce_null = true;
          return s;
        },
        conv_kernel);
    d.may_throw = true;
    d.usage = "conv(num, from_base, to_base) - Convert num from from_base to to_base.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
