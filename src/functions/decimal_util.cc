#include "functions/decimal_util.h"

#include <algorithm>
#include <array>

#include "common/error.h"

namespace ember::functions {
namespace {

using u128 = unsigned __int128;

/// A 256-bit magnitude, for intermediate results only.
struct U256 {
  u128 hi = 0, lo = 0;
  bool is_zero() const { return hi == 0 && lo == 0; }
};

u128 magnitude(int128_t v) { return v < 0 ? u128(0) - u128(v) : u128(v); }

U256 mul(u128 a, u128 b) {
  const uint64_t a0 = uint64_t(a), a1 = uint64_t(a >> 64), b0 = uint64_t(b), b1 = uint64_t(b >> 64);
  u128 p00 = u128(a0) * b0, p01 = u128(a0) * b1, p10 = u128(a1) * b0, p11 = u128(a1) * b1;
  u128 mid = (p00 >> 64) + uint64_t(p01) + uint64_t(p10);
  U256 r;
  r.lo = (mid << 64) | uint64_t(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}

/// a * b where a is 256-bit and the product is known to fit in 256 bits.
U256 mul(U256 a, u128 b) {
  U256 low = mul(a.lo, b);
  U256 high = mul(a.hi, b);  // only its low half can be nonzero when the product fits
  low.hi += high.lo;
  return low;
}

bool less(const U256& a, const U256& b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }

U256 sub(U256 a, const U256& b) {
  u128 borrow = a.lo < b.lo ? 1 : 0;
  a.lo -= b.lo;
  a.hi -= b.hi + borrow;
  return a;
}

U256 add(U256 a, const U256& b) {
  a.lo += b.lo;
  a.hi += b.hi + (a.lo < b.lo ? 1 : 0);
  return a;
}

/// Quotient and remainder of a 256-bit magnitude by a nonzero 256-bit divisor (shift-subtract).
void divmod(U256 a, U256 d, U256* q, U256* r) {
  if (d.hi == 0 && a.hi == 0) {
    *q = {0, a.lo / d.lo};
    *r = {0, a.lo % d.lo};
    return;
  }
  U256 quot, rem;
  for (int bit = 255; bit >= 0; --bit) {
    rem.hi = (rem.hi << 1) | (rem.lo >> 127);
    rem.lo <<= 1;
    u128 abit = bit >= 128 ? (a.hi >> (bit - 128)) & 1 : (a.lo >> bit) & 1;
    rem.lo |= abit;
    if (!less(rem, d)) {
      rem = sub(rem, d);
      if (bit >= 128) quot.hi |= u128(1) << (bit - 128);
      else quot.lo |= u128(1) << bit;
    }
  }
  *q = quot;
  *r = rem;
}

/// round_half_up(n / d) (or the quotient truncated, when `round` is false) with its sign; false
/// when it does not fit in int128.
bool divide_rounded(U256 n, U256 d, bool negative, int128_t* out, bool round = true) {
  U256 q, r;
  divmod(n, d, &q, &r);
  // Round up when 2r >= d.
  U256 twice{(r.hi << 1) | (r.lo >> 127), r.lo << 1};
  bool carry = (r.hi >> 127) != 0;
  if (round && (carry || !less(twice, d))) {
    q.lo += 1;
    if (q.lo == 0) q.hi += 1;
  }
  if (q.hi != 0 || (q.lo >> 127) != 0) return false;
  int128_t v = int128_t(q.lo);
  *out = negative ? -v : v;
  return true;
}

}  // namespace

int128_t pow10_i128(int n) {
  static const auto table = [] {
    std::array<int128_t, 39> t{};
    t[0] = 1;
    for (int i = 1; i <= 38; ++i) t[static_cast<size_t>(i)] = t[static_cast<size_t>(i - 1)] * 10;
    return t;
  }();
  EMBER_CHECK(n >= 0 && n <= 38, "pow10 out of range");
  return table[static_cast<size_t>(n)];
}

bool decimal_fits(int128_t v, int precision) {
  if (precision >= 39) return true;
  int128_t bound = pow10_i128(precision);
  return v < bound && v > -bound;
}

bool decimal_rescale(int128_t v, int from, int to, int128_t* out) {
  if (to == from) {
    *out = v;
    return true;
  }
  if (to > from) {
    if (to - from > 38) return v == 0 ? (*out = 0, true) : false;
    return !__builtin_mul_overflow(v, pow10_i128(to - from), out);
  }
  int k = from - to;
  if (k > 38) {
    *out = 0;  // |v| < 2^127 < 0.5 * 10^39
    return true;
  }
  int128_t p = pow10_i128(k);
  int128_t q = v / p, r = v % p;
  u128 twice = magnitude(r) * 2;
  if (twice >= u128(p)) q += v < 0 ? -1 : 1;
  *out = q;
  return true;
}

bool decimal_multiply(int128_t a, int128_t b, int shift, int128_t* out) {
  int128_t prod;
  // Factors of at most 64 bits (every decimal of up to 18 digits) multiply exactly with one
  // widening multiply; 128-bit overflow checks are a library call.
  if (a == static_cast<int64_t>(a) && b == static_cast<int64_t>(b))
    return decimal_rescale(static_cast<int128_t>(static_cast<int64_t>(a)) * static_cast<int64_t>(b), shift, 0, out);
  if (!__builtin_mul_overflow(a, b, &prod)) return decimal_rescale(prod, shift, 0, out);
  bool negative = (a < 0) != (b < 0);
  U256 p = mul(magnitude(a), magnitude(b));
  if (shift > 38) return false;
  return divide_rounded(p, {0, u128(pow10_i128(shift))}, negative, out);
}

bool decimal_divide(int128_t a, int128_t b, int shift, int128_t* out, bool round) {
  bool negative = (a < 0) != (b < 0);
  U256 n{0, magnitude(a)}, d{0, magnitude(b)};
  if (shift >= 0) {
    while (shift > 38) {
      n = mul(n, u128(pow10_i128(38)));
      shift -= 38;
    }
    n = mul(n, u128(pow10_i128(shift)));
  } else {
    int s = -shift;
    while (s > 38) {
      d = mul(d, u128(pow10_i128(38)));
      s -= 38;
    }
    d = mul(d, u128(pow10_i128(s)));
  }
  return divide_rounded(n, d, negative, out, round);
}

bool decimal_add(int128_t a, int sa, int128_t b, int sb, int to, int128_t* out) {
  const int common = std::max(sa, sb);
  EMBER_CHECK(to <= common, "decimal_add rounds to a scale at most its operands'");
  int128_t x, y, sum;
  if (decimal_rescale(a, sa, common, &x) && decimal_rescale(b, sb, common, &y) &&
      !__builtin_add_overflow(x, y, &sum))
    return decimal_rescale(sum, common, to, out);
  // Magnitudes of at most 38 digits scaled by at most 10^38 fit in 256 bits.
  const U256 ma = mul(magnitude(a), u128(pow10_i128(common - sa)));
  const U256 mb = mul(magnitude(b), u128(pow10_i128(common - sb)));
  const bool na = a < 0, nb = b < 0;
  U256 m;
  bool negative;
  if (na == nb) {
    m = add(ma, mb);
    negative = na;
  } else if (less(ma, mb)) {
    m = sub(mb, ma);
    negative = nb;
  } else {
    m = sub(ma, mb);
    negative = na;
  }
  return divide_rounded(m, {0, u128(pow10_i128(common - to))}, negative, out);
}

int128_t decimal_negate(int128_t v, int precision, int scale) {
  constexpr int kDigits = 34;  // MathContext.DECIMAL128
  if (precision <= kDigits || decimal_fits(v, kDigits)) return -v;
  u128 m = magnitude(v);
  int drop = 0;
  for (u128 bound = u128(pow10_i128(kDigits)); m / u128(pow10_i128(drop)) >= bound;) ++drop;
  const u128 f = u128(pow10_i128(drop));
  u128 q = m / f, r = m % f;
  if (r * 2 > f || (r * 2 == f && (q & 1) != 0)) ++q;
  if (q == u128(pow10_i128(kDigits))) {
    q /= 10;
    ++drop;
  }
  const int128_t rounded = v < 0 ? int128_t(q) : -int128_t(q);
  // q < 10^34 and drop <= 5: the value at the original scale fits in 128 bits.
  const int128_t result = rounded * pow10_i128(drop);
  if (!decimal_fits(result, precision))
    decimal_rounded_out_of_range(decimal_to_string(result, scale), java_decimal_string(rounded, scale - drop),
                                 precision, scale);
  return result;
}

std::string java_decimal_string(int128_t unscaled, int scale) {
  std::string digits = int128_to_string(unscaled);
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  const int64_t adjusted = static_cast<int64_t>(digits.size()) - 1 - scale;
  if (scale >= 0 && adjusted >= -6) return decimal_to_string(unscaled, scale);
  std::string text = (negative ? "-" : "") + digits.substr(0, 1);
  if (digits.size() > 1) text += "." + digits.substr(1);
  if (adjusted != 0) text += std::string("E") + (adjusted > 0 ? "+" : "") + std::to_string(adjusted);
  return text;
}

TypePtr decimal_adjusted(int precision, int scale) {
  const int max = DataType::kMaxDecimalPrecision;
  if (precision <= max) return DataType::decimal(precision, scale);
  int int_digits = precision - scale;
  int min_scale = std::min(scale, 6);
  int adjusted = std::max(max - int_digits, min_scale);
  return DataType::decimal(max, adjusted);
}

TypePtr integral_as_decimal(const TypePtr& t) {
  switch (t->id()) {
    case TypeId::kByte: return DataType::decimal(3, 0);
    case TypeId::kShort: return DataType::decimal(5, 0);
    case TypeId::kInt: return DataType::decimal(10, 0);
    case TypeId::kLong: return DataType::decimal(20, 0);
    default: return t;
  }
}

void decimal_out_of_range_text(const std::string& value, int precision, int scale) {
  std::string type = "Decimal(" + std::to_string(precision) + ", " + std::to_string(scale) + ")";
  throw SparkError(ErrorKind::kArithmetic, "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                   " " + value + " cannot be represented as " + type +
                       ". If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this "
                       "error, and return NULL instead.",
                   {{"value", value},
                    {"precision", std::to_string(precision)},
                    {"scale", std::to_string(scale)},
                    {"config", "\"spark.sql.ansi.enabled\""}});
}

void decimal_rounded_out_of_range(const std::string& rounded, const std::string& original, int precision,
                                  int scale) {
  throw SparkError(ErrorKind::kArithmetic, "NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION",
                   " The " + rounded + " rounded half up from " + original + " cannot be represented as Decimal(" +
                       std::to_string(precision) + ", " + std::to_string(scale) + ").",
                   {{"roundedValue", rounded},
                    {"originalValue", original},
                    {"precision", std::to_string(precision)},
                    {"scale", std::to_string(scale)}},
                   "22003");
}

void decimal_out_of_range(int128_t unscaled, int scale, int precision, int target_scale) {
  decimal_out_of_range_text(decimal_to_string(unscaled, scale), precision, target_scale);
}

}  // namespace ember::functions
