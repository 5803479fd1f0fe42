// fdlibm 5.3's algorithms, step for step, so that each result is the double Java's StrictMath
// returns. The order of the floating-point operations is part of each algorithm: regrouping a
// sum, or letting the compiler fuse a multiply and an add, changes the last bit of some results.

#include "functions/strict_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace ember::functions::strict_math {
namespace {

// ---- Bit access ---------------------------------------------------------------------------------
// fdlibm reads a double as two 32-bit words: the high word holds the sign, the 11 exponent bits
// and the top 20 significand bits; the low word holds the other 32 significand bits. Thresholds
// are compared on the high word, and clearing the low word keeps a value's leading 21
// significand bits, so that products of such values are exact.

int32_t high_word(double x) { return static_cast<int32_t>(std::bit_cast<uint64_t>(x) >> 32); }

uint32_t low_word(double x) { return static_cast<uint32_t>(std::bit_cast<uint64_t>(x)); }

double from_words(int32_t high, uint32_t low) {
  return std::bit_cast<double>((static_cast<uint64_t>(static_cast<uint32_t>(high)) << 32) | low);
}

double with_high_word(double x, int32_t high) { return from_words(high, low_word(x)); }

double clear_low_word(double x) { return from_words(high_word(x), 0); }

/// The high word of |x|.
int32_t abs_high_word(double x) { return high_word(x) & 0x7fffffff; }

/// Adds k to the exponent field of y: y * 2^k for a normal y whose result stays normal.
double add_to_exponent(double y, int k) {
  const uint32_t high = static_cast<uint32_t>(high_word(y)) + (static_cast<uint32_t>(k) << 20);
  return from_words(static_cast<int32_t>(high), low_word(y));
}

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 0x1.921fb54442d18p1;

// ln 2 in two parts: the high part has 32 significand bits, so k * kLn2Hi is exact for the k
// that arise (|k| < 2^21), and kLn2Lo carries the next 53 bits.
constexpr double kLn2Hi = 0x1.62e42feep-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kInvLn2 = 0x1.71547652b82fep0;

// exp overflows above this argument and underflows to zero below the other.
constexpr double kExpOverflow = 0x1.62e42fefa39efp9;
constexpr double kExpUnderflow = -0x1.74910d52d3051p9;

// The minimax polynomial in r^2 behind exp(r) on |r| <= ln2/2 (exp and pow share it):
// r * (exp(r) + 1) / (exp(r) - 1) ~ 2 + P1 r^2 + ... + P5 r^10, within 2^-59.
constexpr double kExpP1 = 0x1.555555555553ep-3;
constexpr double kExpP2 = -0x1.6c16c16bebd93p-9;
constexpr double kExpP3 = 0x1.1566aaf25de2cp-14;
constexpr double kExpP4 = -0x1.bbd41c5d26bf1p-20;
constexpr double kExpP5 = 0x1.6376972bea4d0p-25;

// The minimax polynomial behind log(1 + f) = 2s + s R(s^2), s = f / (2 + f), within 2^-58.45
// on [0, 0.1716] (log and log1p share it).
constexpr double kLogC1 = 0x1.5555555555593p-1;
constexpr double kLogC2 = 0x1.999999997fa04p-2;
constexpr double kLogC3 = 0x1.2492494229359p-2;
constexpr double kLogC4 = 0x1.c71c51d8e78afp-3;
constexpr double kLogC5 = 0x1.7466496cb03dep-3;
constexpr double kLogC6 = 0x1.39a09d078c69fp-3;
constexpr double kLogC7 = 0x1.2f112df3e5244p-3;

}  // namespace

// ---- exp ----------------------------------------------------------------------------------------
// x = k ln2 + r with |r| <= ln2/2, r kept as hi - lo; exp(r) = 1 + r + r c / (2 - c) with
// c = r - r^2 (P1 + ... + P5 r^8); exp(x) = 2^k exp(r), the scaling done on the exponent field.

double exp(double x) {
  const int32_t hx = high_word(x);
  const bool negative = hx < 0;
  const int32_t ax = hx & 0x7fffffff;
  if (ax >= 0x40862e42) {  // |x| >= 709.78: overflow, underflow, an infinity or NaN
    if (ax >= 0x7ff00000) {
      if (std::isnan(x)) return x + x;
      return negative ? 0.0 : x;
    }
    if (x > kExpOverflow) return kInfinity;
    if (x < kExpUnderflow) return 0.0;
  }
  double hi = 0.0, lo = 0.0;
  int k = 0;
  if (ax > 0x3fd62e42) {    // |x| > ln2/2: reduce
    if (ax < 0x3ff0a2b2) {  // |x| < 1.5 ln2: k is ±1
      hi = negative ? x + kLn2Hi : x - kLn2Hi;
      lo = negative ? -kLn2Lo : kLn2Lo;
      k = negative ? -1 : 1;
    } else {
      k = static_cast<int>(kInvLn2 * x + (negative ? -0.5 : 0.5));
      const double t = k;
      hi = x - t * kLn2Hi;
      lo = t * kLn2Lo;
    }
    x = hi - lo;
  } else if (ax < 0x3e300000) {  // |x| < 2^-28: exp(x) rounds to 1 + x
    return 1.0 + x;
  }
  const double t = x * x;
  const double c = x - t * (kExpP1 + t * (kExpP2 + t * (kExpP3 + t * (kExpP4 + t * kExpP5))));
  if (k == 0) return 1.0 - ((x * c) / (c - 2.0) - x);
  const double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) return add_to_exponent(y, k);
  // A subnormal result: scale in two steps so that the rounding happens once, at the end.
  return add_to_exponent(y, k + 1000) * 0x1p-1000;
}

// ---- expm1 --------------------------------------------------------------------------------------
// The reduction of exp, with the rounding error of r = hi - lo kept in c. On the reduced range,
// expm1(r) = r + r^2/2 + r^3/2 (3 - (R1 + R1 r/2)) / (6 - r (3 - R1 r/2)), R1 a degree-5
// polynomial in r^2 (its coefficients scaled by 2^i so that it runs on r^2/2); then
// expm1(x) = 2^k (expm1(r) + 1) - 1, arranged per k so that no bits are lost.

namespace {
constexpr double kExpm1Q1 = -0x1.11111111110f4p-5;
constexpr double kExpm1Q2 = 0x1.a01a019fe5585p-10;
constexpr double kExpm1Q3 = -0x1.4ce199eaadbb7p-14;
constexpr double kExpm1Q4 = 0x1.0cfca86e65239p-18;
constexpr double kExpm1Q5 = -0x1.afdb76e09c32dp-23;
}  // namespace

double expm1(double x) {
  const int32_t hx = high_word(x);
  const bool negative = hx < 0;
  const int32_t ax = hx & 0x7fffffff;
  if (ax >= 0x4043687a) {    // |x| >= 56 ln2
    if (ax >= 0x40862e42) {  // |x| >= 709.78
      if (ax >= 0x7ff00000) {
        if (std::isnan(x)) return x + x;
        return negative ? -1.0 : x;
      }
      if (x > kExpOverflow) return kInfinity;
    }
    if (negative) return -1.0;  // exp(x) < 2^-56: the result rounds to -1
  }
  double c = 0.0;
  int k = 0;
  if (ax > 0x3fd62e42) {  // |x| > ln2/2: reduce
    double hi, lo;
    if (ax < 0x3ff0a2b2) {  // |x| < 1.5 ln2: k is ±1
      hi = negative ? x + kLn2Hi : x - kLn2Hi;
      lo = negative ? -kLn2Lo : kLn2Lo;
      k = negative ? -1 : 1;
    } else {
      k = static_cast<int>(kInvLn2 * x + (negative ? -0.5 : 0.5));
      const double t = k;
      hi = x - t * kLn2Hi;
      lo = t * kLn2Lo;
    }
    x = hi - lo;
    c = (hi - x) - lo;
  } else if (ax < 0x3c900000) {  // |x| < 2^-54: expm1(x) rounds to x
    return x;
  }
  const double hfx = 0.5 * x;
  const double hxs = x * hfx;
  const double r1 =
      1.0 +
      hxs * (kExpm1Q1 + hxs * (kExpm1Q2 + hxs * (kExpm1Q3 + hxs * (kExpm1Q4 + hxs * kExpm1Q5))));
  const double t = 3.0 - r1 * hfx;
  double e = hxs * ((r1 - t) / (6.0 - x * t));
  if (k == 0) return x - (x * e - hxs);
  // expm1(r + c) ~ expm1(r) + c + r c: fold the correction into the error term e.
  e = (x * (e - c) - c);
  e -= hxs;
  if (k == -1) return 0.5 * (x - e) - 0.5;
  if (k == 1) {
    if (x < -0.25) return -2.0 * (e - (x + 0.5));
    return 1.0 + 2.0 * (x - e);
  }
  if (k <= -2 || k > 56) {  // 2^k exp(r) - 1 loses nothing that matters
    const double y = add_to_exponent(1.0 - (e - x), k);
    return y - 1.0;
  }
  if (k < 20) {  // 2^k ((1 - 2^-k) + expm1(r))
    const double one_minus = from_words(0x3ff00000 - (0x200000 >> k), 0);
    return add_to_exponent(one_minus - (e - x), k);
  }
  // 2^k ((expm1(r) - 2^-k) + 1)
  const double two_to_minus_k = from_words((0x3ff - k) << 20, 0);
  double y = x - (e + two_to_minus_k);
  y += 1.0;
  return add_to_exponent(y, k);
}

// ---- log ----------------------------------------------------------------------------------------
// x = 2^k (1 + f) with sqrt(2)/2 < 1 + f < sqrt(2); log(1 + f) = 2s + s R(s^2), s = f / (2 + f),
// computed as f - s (f - R) or, where |f| is large, as f - (f^2/2 - s (f^2/2 + R)); then
// log(x) = k ln2_hi + (log(1 + f) + k ln2_lo).

double log(double x) {
  int32_t hx = high_word(x);
  const uint32_t lx = low_word(x);
  int k = 0;
  if (hx < 0x00100000) {  // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | static_cast<int32_t>(lx)) == 0) return -kInfinity;
    if (hx < 0) return kNaN;
    k -= 54;
    x *= 0x1p54;
    hx = high_word(x);
  }
  if (hx >= 0x7ff00000) return x + x;  // +infinity or NaN
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  // Whether the significand is at least sqrt(2): then take x/2 and one more power of two.
  const int32_t halve = (hx + 0x95f64) & 0x100000;
  x = with_high_word(x, hx | (halve ^ 0x3ff00000));
  k += halve >> 20;
  const double f = x - 1.0;
  const double dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {  // |f| < 2^-20: a short series
    if (f == 0.0) return k == 0 ? 0.0 : dk * kLn2Hi + dk * kLn2Lo;
    const double r = f * f * (0.5 - 0.33333333333333333 * f);
    if (k == 0) return f - r;
    return dk * kLn2Hi - ((r - dk * kLn2Lo) - f);
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double w = z * z;
  const double t1 = w * (kLogC2 + w * (kLogC4 + w * kLogC6));
  const double t2 = z * (kLogC1 + w * (kLogC3 + w * (kLogC5 + w * kLogC7)));
  const double r = t2 + t1;
  // Significands in [1.38, 1.42) give the largest |f|, where f^2/2 is split off for accuracy.
  const bool large_f = ((hx - 0x6147a) | (0x6b851 - hx)) > 0;
  if (large_f) {
    const double hfsq = 0.5 * f * f;
    if (k == 0) return f - (hfsq - s * (hfsq + r));
    return dk * kLn2Hi - ((hfsq - (s * (hfsq + r) + dk * kLn2Lo)) - f);
  }
  if (k == 0) return f - s * (f - r);
  return dk * kLn2Hi - ((s * (f - r) - dk * kLn2Lo) - f);
}

// ---- log10 --------------------------------------------------------------------------------------
// x = 2^n y with y in [1, 2) (or [0.5, 1) when n < 0, so that y's logarithm has n's sign);
// log10(x) = n log10(2)_hi + (n log10(2)_lo + log(y) / ln 10). Exact for powers of ten.

double log10(double x) {
  constexpr double kInvLn10 = 0x1.bcb7b1526e50ep-2;
  constexpr double kLog10Of2Hi = 0x1.34413509f6p-2;
  constexpr double kLog10Of2Lo = 0x1.9fef311f12b36p-42;
  int32_t hx = high_word(x);
  const uint32_t lx = low_word(x);
  int k = 0;
  if (hx < 0x00100000) {  // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | static_cast<int32_t>(lx)) == 0) return -kInfinity;
    if (hx < 0) return kNaN;
    k -= 54;
    x *= 0x1p54;
    hx = high_word(x);
  }
  if (hx >= 0x7ff00000) return x + x;  // +infinity or NaN
  k += (hx >> 20) - 1023;
  const int32_t below_one = k < 0 ? 1 : 0;
  hx = (hx & 0x000fffff) | ((0x3ff - below_one) << 20);
  const double y = static_cast<double>(k + below_one);
  x = with_high_word(x, hx);
  const double z = y * kLog10Of2Lo + kInvLn10 * log(x);
  return z + y * kLog10Of2Hi;
}

// ---- log1p --------------------------------------------------------------------------------------
// log's method on 1 + x = 2^k (1 + f). Where k != 0, f comes from u = 1 + x rounded, and
// c = ((1 + x) - u) / u corrects for that rounding (log(1 + x) ~ log(u) + c). Small x keep
// f = x exactly, with k = 0.

double log1p(double x) {
  const int32_t hx = high_word(x);
  const int32_t ax = hx & 0x7fffffff;
  int k = 1;
  double f = 0.0, c = 0.0;
  int32_t hu = 0;
  if (hx < 0x3fda827a) {     // x < 0.41422, negative x included
    if (ax >= 0x3ff00000) {  // x <= -1
      if (x == -1.0) return -kInfinity;
      return kNaN;
    }
    if (ax < 0x3e200000) {            // |x| < 2^-29
      if (ax < 0x3c900000) return x;  // |x| < 2^-54
      return x - x * x * 0.5;
    }
    if (hx > 0 || hx <= static_cast<int32_t>(0xbfd2bec3)) {  // -0.2929 < x < 0.41422
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x;  // +infinity or NaN
  if (k != 0) {
    double u;
    if (hx < 0x43400000) {  // x < 2^53
      u = 1.0 + x;
      hu = high_word(u);
      k = (hu >> 20) - 1023;
      c = (k > 0) ? 1.0 - (u - x) : x - (u - 1.0);  // the rounding error of 1 + x
      c /= u;
    } else {  // 1 + x rounds to x
      u = x;
      hu = high_word(u);
      k = (hu >> 20) - 1023;
      c = 0.0;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) {  // u's significand below sqrt(2)
      u = with_high_word(u, hu | 0x3ff00000);
    } else {  // halve it
      k += 1;
      u = with_high_word(u, hu | 0x3fe00000);
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1.0;
  }
  const double hfsq = 0.5 * f * f;
  const double dk = k;
  if (hu == 0) {  // |f| < 2^-20: a short series
    if (f == 0.0) {
      if (k == 0) return 0.0;
      c += dk * kLn2Lo;
      return dk * kLn2Hi + c;
    }
    const double r = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k == 0) return f - r;
    return dk * kLn2Hi - ((r - (dk * kLn2Lo + c)) - f);
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double r =
      z * (kLogC1 +
           z * (kLogC2 + z * (kLogC3 + z * (kLogC4 + z * (kLogC5 + z * (kLogC6 + z * kLogC7))))));
  if (k == 0) return f - (hfsq - s * (hfsq + r));
  return dk * kLn2Hi - ((hfsq - (s * (hfsq + r) + (dk * kLn2Lo + c))) - f);
}

// ---- Reduction modulo pi/2 ----------------------------------------------------------------------
// x = n pi/2 + (hi + lo) with |hi + lo| <= pi/4 (about). Medium arguments subtract n times pi/2
// held in 33-bit pieces (Cody and Waite), with more pieces where cancellation took more bits;
// huge ones multiply the significand by just the bits of 2/pi that reach the fraction and the
// last three bits of n (Payne and Hanek).

namespace {

// 2/pi's bits after the binary point, 24 at a time (1584 bits: enough for any double).
constexpr int32_t kTwoOverPi[] = {
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
    0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
    0x73A8C9, 0x60E27B, 0xC08C6B,
};

// pi/2 in 24-bit pieces.
constexpr double kPiOver2Pieces[] = {
    0x1.921fb4p0,   0x1.4442dp-24,   0x1.846988p-48,  0x1.8cc516p-72,
    0x1.01b838p-96, 0x1.a25204p-120, 0x1.382228p-145, 0x1.9f31dp-169,
};

// The high words of n pi/2 for n = 1..32: an argument whose high word is one of these may be
// close enough to n pi/2 that 33 + 53 bits of pi/2 do not suffice.
constexpr int32_t kNPiOver2HighWords[] = {
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB, 0x402921FB,
    0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB, 0x40378FDB, 0x403921FB,
    0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C, 0x4041475C, 0x4042106C, 0x4042D97C,
    0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB, 0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
};

constexpr double kInvPiOver2 = 0x1.45f306dc9c883p-1;  // 2/pi to 53 bits
// pi/2 as three 33-bit pieces, each with the rest of pi/2 after it ("t" for tail).
constexpr double kPiOver2Part1 = 0x1.921fb544p0;
constexpr double kPiOver2Tail1 = 0x1.0b4611a626331p-34;
constexpr double kPiOver2Part2 = 0x1.0b4611a6p-34;
constexpr double kPiOver2Tail2 = 0x1.3198a2e037073p-69;
constexpr double kPiOver2Part3 = 0x1.3198a2ep-69;
constexpr double kPiOver2Tail3 = 0x1.b839a252049c1p-104;

struct Reduced {
  int n;  // x = n pi/2 + (hi + lo); only n mod 4 matters to the callers
  double hi;
  double lo;
};

/// Payne-Hanek reduction of a positive x given as nx 24-bit integer pieces x[i] (in doubles),
/// x = sum x[i] 2^(e0 - 24 i). The product with 2/pi is formed in 24-bit chunks, skipping the
/// chunks of 2/pi whose product with x is a multiple of 8 (they do not change n mod 8 nor the
/// fraction), and with more chunks when the fraction cancels to zero at the first attempt.
/// Returns n mod 8 and the remainder in y[0] + y[1].
int reduce_huge(const double* x, int nx, int e0, double* y) {
  // Chunks of 2/pi used beyond those needed, for double precision with a margin.
  constexpr int kExtra = 4;
  int32_t iq[20] = {};
  double f[20] = {}, fq[20] = {}, q[20] = {};
  const int jx = nx - 1;
  // The first chunk of 2/pi that matters, and the exponent of the first chunk of the product.
  const int jv = std::max(0, (e0 - 3) / 24);
  int q0 = e0 - 24 * (jv + 1);

  // f[i] = the chunks of 2/pi from jv - jx on (zero before the table starts).
  for (int i = 0, j = jv - jx; i <= jx + kExtra; ++i, ++j)
    f[i] = j < 0 ? 0.0 : static_cast<double>(kTwoOverPi[j]);
  // q[i] = sum over j of x[j] f[jx + i - j]: the product's chunks, most significant first.
  for (int i = 0; i <= kExtra; ++i) {
    double fw = 0.0;
    for (int j = 0; j <= jx; ++j) fw += x[j] * f[jx + i - j];
    q[i] = fw;
  }

  int jz = kExtra;
  int n = 0, ih = 0;
  double z = 0.0;
  for (;;) {
    // Carry the chunks into 24-bit integers iq[], least significant first; z ends up holding
    // the leading chunk with the carries into it.
    z = q[jz];
    for (int i = 0, j = jz; j > 0; ++i, --j) {
      const double fw = static_cast<double>(static_cast<int32_t>(0x1p-24 * z));
      iq[i] = static_cast<int32_t>(z - 0x1p24 * fw);
      z = q[j - 1] + fw;
    }
    // n = the integer part of the product mod 8; z its fraction, as far as it lies in z.
    z = std::ldexp(z, q0);
    z -= 8.0 * std::floor(z * 0.125);
    n = static_cast<int32_t>(z);
    z -= n;
    ih = 0;
    if (q0 > 0) {  // the leading chunk iq[jz - 1] holds integer bits too
      const int32_t integer_bits = iq[jz - 1] >> (24 - q0);
      n += integer_bits;
      iq[jz - 1] -= integer_bits << (24 - q0);
      ih = iq[jz - 1] >> (23 - q0);
    } else if (q0 == 0) {
      ih = iq[jz - 1] >> 23;
    } else if (z >= 0.5) {
      ih = 2;
    }
    if (ih > 0) {  // the fraction is at least 1/2: round n up and take 1 - fraction
      n += 1;
      int carry = 0;
      for (int i = 0; i < jz; ++i) {
        const int32_t j = iq[i];
        if (carry == 0) {
          if (j != 0) {
            carry = 1;
            iq[i] = 0x1000000 - j;
          }
        } else {
          iq[i] = 0xffffff - j;
        }
      }
      if (q0 == 1) iq[jz - 1] &= 0x7fffff;
      if (q0 == 2) iq[jz - 1] &= 0x3fffff;
      if (ih == 2) {
        z = 1.0 - z;
        if (carry != 0) z -= std::ldexp(1.0, q0);
      }
    }
    if (z != 0.0) break;
    int any = 0;
    for (int i = jz - 1; i >= kExtra; --i) any |= iq[i];
    if (any != 0) break;
    // The fraction cancelled in the chunks at hand: bring in k more chunks of 2/pi.
    int k = 1;
    while (iq[kExtra - k] == 0) ++k;
    for (int i = jz + 1; i <= jz + k; ++i) {
      f[jx + i] = static_cast<double>(kTwoOverPi[jv + i]);
      double fw = 0.0;
      for (int j = 0; j <= jx; ++j) fw += x[j] * f[jx + i - j];
      q[i] = fw;
    }
    jz += k;
  }

  // Drop the chunks that are zero, or split z into chunks.
  if (z == 0.0) {
    jz -= 1;
    q0 -= 24;
    while (iq[jz] == 0) {
      jz--;
      q0 -= 24;
    }
  } else {
    z = std::ldexp(z, -q0);
    if (z >= 0x1p24) {
      const double fw = static_cast<double>(static_cast<int32_t>(0x1p-24 * z));
      iq[jz] = static_cast<int32_t>(z - 0x1p24 * fw);
      jz += 1;
      q0 += 24;
      iq[jz] = static_cast<int32_t>(fw);
    } else {
      iq[jz] = static_cast<int32_t>(z);
    }
  }

  // The fraction's chunks as doubles, then times pi/2 (in its 24-bit pieces).
  double scale = std::ldexp(1.0, q0);
  for (int i = jz; i >= 0; --i) {
    q[i] = scale * static_cast<double>(iq[i]);
    scale *= 0x1p-24;
  }
  for (int i = jz; i >= 0; --i) {
    double fw = 0.0;
    for (int k = 0; k <= kExtra && k <= jz - i; ++k) fw += kPiOver2Pieces[k] * q[i + k];
    fq[jz - i] = fw;
  }

  // Sum the products into y[0], smallest first, and what y[0] lost into y[1].
  double fw = 0.0;
  for (int i = jz; i >= 0; --i) fw += fq[i];
  y[0] = ih == 0 ? fw : -fw;
  fw = fq[0] - fw;
  for (int i = 1; i <= jz; ++i) fw += fq[i];
  y[1] = ih == 0 ? fw : -fw;
  return n & 7;
}

/// x's remainder modulo pi/2, for finite |x| > pi/4.
Reduced reduce(double x) {
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) {  // |x| < 3pi/4: n is ±1
    const double sign = hx > 0 ? 1.0 : -1.0;
    const double z = x - sign * kPiOver2Part1;
    if (ix != 0x3ff921fb) {  // 33 + 53 bits of pi/2 are enough
      const double hi = z - sign * kPiOver2Tail1;
      return {hx > 0 ? 1 : -1, hi, (z - hi) - sign * kPiOver2Tail1};
    }
    // Near pi/2: 33 + 33 + 53 bits.
    const double z2 = z - sign * kPiOver2Part2;
    const double hi = z2 - sign * kPiOver2Tail2;
    return {hx > 0 ? 1 : -1, hi, (z2 - hi) - sign * kPiOver2Tail2};
  }
  if (ix <= 0x413921fb) {  // |x| <= 2^19 pi/2
    const double t = std::fabs(x);
    const int n = static_cast<int>(t * kInvPiOver2 + 0.5);
    const double fn = n;
    double r = t - fn * kPiOver2Part1;
    double w = fn * kPiOver2Tail1;  // the first step is good to 85 bits
    double hi = r - w;
    if (n >= 32 || ix == kNPiOver2HighWords[n - 1]) {
      // Count the bits the subtraction cancelled; past 16, use 66 bits of pi/2, past 49, 99.
      const int j = ix >> 20;
      int cancelled = j - ((high_word(hi) >> 20) & 0x7ff);
      if (cancelled > 16) {
        double prev = r;
        w = fn * kPiOver2Part2;
        r = prev - w;
        w = fn * kPiOver2Tail2 - ((prev - r) - w);
        hi = r - w;
        cancelled = j - ((high_word(hi) >> 20) & 0x7ff);
        if (cancelled > 49) {
          prev = r;
          w = fn * kPiOver2Part3;
          r = prev - w;
          w = fn * kPiOver2Tail3 - ((prev - r) - w);
          hi = r - w;
        }
      }
    }
    const double lo = (r - hi) - w;
    if (hx < 0) return {-n, -hi, -lo};
    return {n, hi, lo};
  }
  // Huge |x|: split |x| into three 24-bit integers scaled by 2^e0.
  const int e0 = (ix >> 20) - 1046;
  double z = from_words(ix - (e0 << 20), low_word(x));
  double pieces[3];
  for (int i = 0; i < 2; ++i) {
    pieces[i] = static_cast<double>(static_cast<int32_t>(z));
    z = (z - pieces[i]) * 0x1p24;
  }
  pieces[2] = z;
  int count = 3;
  while (pieces[count - 1] == 0.0) --count;
  double y[2];
  const int n = reduce_huge(pieces, count, e0, y);
  if (hx < 0) return {-n, -y[0], -y[1]};
  return {n, y[0], y[1]};
}

// ---- Kernels on [-pi/4, pi/4] -------------------------------------------------------------------
// Each takes the reduced argument as x + y, y the tail beyond x's precision.

/// sin(x + y) ~ x + S1 x^3 + ... + S6 x^13 (error 2^-58), with the tail's first-order term:
/// sin(x + y) = x + (S1 x^3 + (x^2 (r - y/2) + y)), r = x^5 (S2 + x^2 (S3 + ...)).
double kernel_sin(double x, double y, bool has_tail) {
  constexpr double kS1 = -0x1.5555555555549p-3;
  constexpr double kS2 = 0x1.111111110f8a6p-7;
  constexpr double kS3 = -0x1.a01a019c161d5p-13;
  constexpr double kS4 = 0x1.71de357b1fe7dp-19;
  constexpr double kS5 = -0x1.ae5e68a2b9cebp-26;
  constexpr double kS6 = 0x1.5d93a5acfd57cp-33;
  if (abs_high_word(x) < 0x3e400000) return x;  // |x| < 2^-27: sin(x) rounds to x
  const double z = x * x;
  const double v = z * x;
  const double r = kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6)));
  if (!has_tail) return x + v * (kS1 + z * r);
  return x - ((z * (0.5 * y - v * r) - y) - v * kS1);
}

/// cos(x + y) ~ 1 - x^2/2 + C1 x^4 + ... + C6 x^14 (error 2^-58), minus x y for the tail. For
/// |x| >= 0.3, a q near x^2/4 is taken out of both 1 and x^2/2 (exactly), which keeps the final
/// subtraction from losing bits.
double kernel_cos(double x, double y) {
  constexpr double kC1 = 0x1.555555555554cp-5;
  constexpr double kC2 = -0x1.6c16c16c15177p-10;
  constexpr double kC3 = 0x1.a01a019cb159p-16;
  constexpr double kC4 = -0x1.27e4f809c52adp-22;
  constexpr double kC5 = 0x1.1ee9ebdb4b1c4p-29;
  constexpr double kC6 = -0x1.8fae9be8838d4p-37;
  const int32_t ix = abs_high_word(x);
  if (ix < 0x3e400000) return 1.0;  // |x| < 2^-27: cos(x) rounds to 1
  const double z = x * x;
  const double r = z * (kC1 + z * (kC2 + z * (kC3 + z * (kC4 + z * (kC5 + z * kC6)))));
  if (ix < 0x3fd33333) return 1.0 - (0.5 * z - (z * r - x * y));  // |x| < 0.3
  // q = |x|/4 cut to its high word, or 0.28125 when |x| > 0.78125.
  const double q = ix > 0x3fe90000 ? 0.28125 : from_words(ix - 0x00200000, 0);
  const double hz = 0.5 * z - q;
  const double a = 1.0 - q;
  return a - (hz - (z * r - x * y));
}

/// -1 / w with w = x + tail rounded, to within an ulp: the quotient's leading bits t, then one
/// correction step with the parts of w held exactly.
double minus_reciprocal(double w, double x, double tail) {
  const double z = clear_low_word(w);
  const double v = tail - (z - x);  // z + v = x + tail
  const double a = -1.0 / w;
  const double t = clear_low_word(a);
  const double s = 1.0 + t * z;
  return t + a * (s + t * v);
}

/// tan(x + y) if k is 1, -1/tan(x + y) if k is -1. tan ~ x + T0 x^3 + ... + T12 x^27 (error
/// 2^-59.2) on [0, 0.6744], the odd and even powers of x^4 summed apart; beyond 0.6744,
/// tan(x) = tan(pi/4 - y') = 1 - 2 (tan(y') - tan(y')^2 / (1 + tan(y'))).
double kernel_tan(double x, double y, int k) {
  constexpr double kPiOver4 = 0x1.921fb54442d18p-1;
  constexpr double kPiOver4Lo = 0x1.1a62633145c07p-55;
  constexpr double kT[] = {
      0x1.5555555555563p-2,  0x1.111111110fe7ap-3,  0x1.ba1ba1bb341fep-5,  0x1.664f48406d637p-6,
      0x1.226e3e96e8493p-7,  0x1.d6d22c9560328p-9,  0x1.7dbc8fee08315p-10, 0x1.344d8f2f26501p-11,
      0x1.026f71a8d1068p-12, 0x1.47e88a03792a6p-14, 0x1.2b80f32f0a7e9p-14, -0x1.375cbdb605373p-16,
      0x1.b2a7074bf7ad4p-16,
  };
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  if (ix < 0x3e300000) {  // |x| < 2^-28
    if ((ix | static_cast<int32_t>(low_word(x)) | (k + 1)) == 0) return 1.0 / std::fabs(x);
    if (k == 1) return x;
    return minus_reciprocal(x + y, x, y);
  }
  const bool near_pi_over_4 = ix >= 0x3fe59428;  // |x| >= 0.6744
  if (near_pi_over_4) {
    if (hx < 0) {
      x = -x;
      y = -y;
    }
    const double z = kPiOver4 - x;
    const double w = kPiOver4Lo - y;
    x = z + w;
    y = 0.0;
  }
  const double z = x * x;
  const double w = z * z;
  double r = kT[1] + w * (kT[3] + w * (kT[5] + w * (kT[7] + w * (kT[9] + w * kT[11]))));
  double v = z * (kT[2] + w * (kT[4] + w * (kT[6] + w * (kT[8] + w * (kT[10] + w * kT[12])))));
  const double s = z * x;
  r = y + z * (s * (r + v) + y);
  r += kT[0] * s;
  const double sum = x + r;
  if (near_pi_over_4) {
    v = static_cast<double>(k);
    const double sign = hx < 0 ? -1.0 : 1.0;
    return sign * (v - 2.0 * (x - (sum * sum / (sum + v) - r)));
  }
  if (k == 1) return sum;
  return minus_reciprocal(sum, x, r);
}

}  // namespace

// ---- sin, cos, tan ------------------------------------------------------------------------------
// Reduce to x = n pi/2 + r, then by n mod 4: sin is S, C, -S, -C; cos is C, -S, -C, S; tan is
// T or -1/T (S, C, T the kernels on r).

double sin(double x) {
  const int32_t ix = abs_high_word(x);
  if (ix <= 0x3fe921fb) return kernel_sin(x, 0.0, false);  // |x| <= pi/4
  if (ix >= 0x7ff00000) return x - x;                      // an infinity or NaN: NaN
  const Reduced r = reduce(x);
  switch (r.n & 3) {
    case 0:
      return kernel_sin(r.hi, r.lo, true);
    case 1:
      return kernel_cos(r.hi, r.lo);
    case 2:
      return -kernel_sin(r.hi, r.lo, true);
    default:
      return -kernel_cos(r.hi, r.lo);
  }
}

double cos(double x) {
  const int32_t ix = abs_high_word(x);
  if (ix <= 0x3fe921fb) return kernel_cos(x, 0.0);  // |x| <= pi/4
  if (ix >= 0x7ff00000) return x - x;               // an infinity or NaN: NaN
  const Reduced r = reduce(x);
  switch (r.n & 3) {
    case 0:
      return kernel_cos(r.hi, r.lo);
    case 1:
      return -kernel_sin(r.hi, r.lo, true);
    case 2:
      return -kernel_cos(r.hi, r.lo);
    default:
      return kernel_sin(r.hi, r.lo, true);
  }
}

double tan(double x) {
  const int32_t ix = abs_high_word(x);
  if (ix <= 0x3fe921fb) return kernel_tan(x, 0.0, 1);  // |x| <= pi/4
  if (ix >= 0x7ff00000) return x - x;                  // an infinity or NaN: NaN
  const Reduced r = reduce(x);
  return kernel_tan(r.hi, r.lo, (r.n & 1) == 0 ? 1 : -1);
}

// ---- asin, acos ---------------------------------------------------------------------------------
// On |x| < 0.5, asin(x) = x + x^3 R(x^2), R a rational minimax approximation (error 2^-58.75).
// Beyond, asin(x) = pi/2 - 2 asin(sqrt((1 - x)/2)), with sqrt split into a 21-bit head and a
// correction where x <= 0.975; acos(x) = pi/2 - asin(x) by the same pieces.

namespace {

constexpr double kPiOver2Hi = 0x1.921fb54442d18p0;
constexpr double kPiOver2Lo = 0x1.1a62633145c07p-54;
constexpr double kPiOver4Hi = 0x1.921fb54442d18p-1;

/// The rational function R(t) = p(t) / q(t) of asin's approximation, as t p(t) and q(t).
struct AsinRational {
  double p;
  double q;
};

AsinRational asin_rational(double t) {
  constexpr double kP0 = 0x1.5555555555555p-3;
  constexpr double kP1 = -0x1.4d61203eb6f7dp-2;
  constexpr double kP2 = 0x1.9c1550e884455p-3;
  constexpr double kP3 = -0x1.48228b5688f3bp-5;
  constexpr double kP4 = 0x1.9efe07501b288p-11;
  constexpr double kP5 = 0x1.23de10dfdf709p-15;
  constexpr double kQ1 = -0x1.33a271c8a2d4bp1;
  constexpr double kQ2 = 0x1.02ae59c598ac8p1;
  constexpr double kQ3 = -0x1.6066c1b8d0159p-1;
  constexpr double kQ4 = 0x1.3b8c5b12e9282p-4;
  return {t * (kP0 + t * (kP1 + t * (kP2 + t * (kP3 + t * (kP4 + t * kP5))))),
          1.0 + t * (kQ1 + t * (kQ2 + t * (kQ3 + t * kQ4)))};
}

}  // namespace

double asin(double x) {
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  if (ix >= 0x3ff00000) {  // |x| >= 1
    if (((ix - 0x3ff00000) | static_cast<int32_t>(low_word(x))) == 0)
      return x * kPiOver2Hi + x * kPiOver2Lo;  // asin(±1) = ±pi/2
    return kNaN;                               // |x| > 1, or NaN
  }
  if (ix < 0x3fe00000) {            // |x| < 0.5
    if (ix < 0x3e400000) return x;  // |x| < 2^-27: asin(x) rounds to x
    const double t = x * x;
    const AsinRational pq = asin_rational(t);
    return x + x * (pq.p / pq.q);
  }
  // 0.5 <= |x| < 1
  const double t = (1.0 - std::fabs(x)) * 0.5;
  const AsinRational pq = asin_rational(t);
  const double s = std::sqrt(t);
  double result;
  if (ix >= 0x3fef3333) {  // |x| > 0.975
    const double w = pq.p / pq.q;
    result = kPiOver2Hi - (2.0 * (s + s * w) - kPiOver2Lo);
  } else {
    const double head = clear_low_word(s);
    const double c = (t - head * head) / (s + head);  // head + c ~ sqrt(t)
    const double r = pq.p / pq.q;
    const double p = 2.0 * s * r - (kPiOver2Lo - 2.0 * c);
    const double q = kPiOver4Hi - 2.0 * head;
    result = kPiOver4Hi - (p - q);
  }
  return hx > 0 ? result : -result;
}

double acos(double x) {
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  if (ix >= 0x3ff00000) {  // |x| >= 1
    if (((ix - 0x3ff00000) | static_cast<int32_t>(low_word(x))) == 0)
      return hx > 0 ? 0.0 : kPi + 2.0 * kPiOver2Lo;  // acos(1) = 0, acos(-1) = pi
    return kNaN;                                     // |x| > 1, or NaN
  }
  if (ix < 0x3fe00000) {                                   // |x| < 0.5
    if (ix <= 0x3c600000) return kPiOver2Hi + kPiOver2Lo;  // |x| < 2^-57
    const double z = x * x;
    const AsinRational pq = asin_rational(z);
    const double r = pq.p / pq.q;
    return kPiOver2Hi - (x - (kPiOver2Lo - x * r));
  }
  if (hx < 0) {  // x < -0.5: acos(x) = pi - 2 asin(sqrt((1 + x)/2))
    const double z = (1.0 + x) * 0.5;
    const AsinRational pq = asin_rational(z);
    const double s = std::sqrt(z);
    const double r = pq.p / pq.q;
    const double w = r * s - kPiOver2Lo;
    return kPi - 2.0 * (s + w);
  }
  // x > 0.5: acos(x) = 2 asin(sqrt((1 - x)/2)), sqrt as a 21-bit head plus a correction.
  const double z = (1.0 - x) * 0.5;
  const double s = std::sqrt(z);
  const double head = clear_low_word(s);
  const double c = (z - head * head) / (s + head);
  const AsinRational pq = asin_rational(z);
  const double r = pq.p / pq.q;
  const double w = r * s + c;
  return 2.0 * (head + w);
}

// ---- atan, atan2 --------------------------------------------------------------------------------
// atan reduces |x| by the interval it falls in: atan(x) = atan(c) + atan((x - c) / (1 + c x))
// for c = 1/2, 1, 3/2, and atan(x) = pi/2 + atan(-1/x) beyond 39/16; then a polynomial in the
// reduced argument's square (error 2^-58), its odd and even terms summed apart.

double atan(double x) {
  constexpr double kAtanHi[] = {0x1.dac670561bb4fp-2, 0x1.921fb54442d18p-1, 0x1.f730bd281f69bp-1,
                                0x1.921fb54442d18p0};
  constexpr double kAtanLo[] = {0x1.a2b7f222f65e2p-56, 0x1.1a62633145c07p-55, 0x1.007887af0cbbdp-56,
                                0x1.1a62633145c07p-54};
  constexpr double kA[] = {
      0x1.555555555550dp-2, -0x1.999999998ebc4p-3, 0x1.24924920083ffp-3, -0x1.c71c6fe231671p-4,
      0x1.745cdc54c206ep-4, -0x1.3b0f2af749a6dp-4, 0x1.10d66a0d03d51p-4, -0x1.dde2d52defd9ap-5,
      0x1.97b4b24760debp-5, -0x1.2b4442c6a6c2fp-5, 0x1.0ad3ae322da11p-6,
  };
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  int id;
  if (ix >= 0x44100000) {  // |x| >= 2^66: ±pi/2
    if (std::isnan(x)) return x + x;
    return hx > 0 ? kAtanHi[3] + kAtanLo[3] : -kAtanHi[3] - kAtanLo[3];
  }
  if (ix < 0x3fdc0000) {            // |x| < 7/16
    if (ix < 0x3e200000) return x;  // |x| < 2^-29: atan(x) rounds to x
    id = -1;
  } else {
    x = std::fabs(x);
    if (ix < 0x3ff30000) {    // |x| < 19/16
      if (ix < 0x3fe60000) {  // 7/16 <= |x| < 11/16
        id = 0;
        x = (2.0 * x - 1.0) / (2.0 + x);
      } else {  // 11/16 <= |x| < 19/16
        id = 1;
        x = (x - 1.0) / (x + 1.0);
      }
    } else if (ix < 0x40038000) {  // 19/16 <= |x| < 39/16
      id = 2;
      x = (x - 1.5) / (1.0 + 1.5 * x);
    } else {  // 39/16 <= |x| < 2^66
      id = 3;
      x = -1.0 / x;
    }
  }
  const double z = x * x;
  const double w = z * z;
  const double s1 =
      z * (kA[0] + w * (kA[2] + w * (kA[4] + w * (kA[6] + w * (kA[8] + w * kA[10])))));
  const double s2 = w * (kA[1] + w * (kA[3] + w * (kA[5] + w * (kA[7] + w * kA[9]))));
  if (id < 0) return x - x * (s1 + s2);
  const double result = kAtanHi[id] - ((x * (s1 + s2) - kAtanLo[id]) - x);
  return hx < 0 ? -result : result;
}

double atan2(double y, double x) {
  constexpr double kPiOver4 = 0x1.921fb54442d18p-1;
  constexpr double kPiLo = 0x1.1a62633145c07p-53;  // pi - kPi
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const int32_t hx = high_word(x);
  const int32_t ix = hx & 0x7fffffff;
  const uint32_t lx = low_word(x);
  const int32_t hy = high_word(y);
  const int32_t iy = hy & 0x7fffffff;
  const uint32_t ly = low_word(y);
  if (x == 1.0) return atan(y);
  // The quadrant: bit 0 the sign of y, bit 1 the sign of x.
  const int m = ((hy >> 31) & 1) | ((hx >> 30) & 2);
  if ((iy | static_cast<int32_t>(ly)) == 0) {  // y = ±0
    switch (m) {
      case 0:
      case 1:
        return y;  // atan2(±0, +anything) = ±0
      case 2:
        return kPi;
      default:
        return -kPi;
    }
  }
  if ((ix | static_cast<int32_t>(lx)) == 0) return hy < 0 ? -kPiOver2Hi : kPiOver2Hi;  // x = ±0
  if (ix == 0x7ff00000) {  // x = ±infinity
    if (iy == 0x7ff00000) {
      switch (m) {
        case 0:
          return kPiOver4;
        case 1:
          return -kPiOver4;
        case 2:
          return 3.0 * kPiOver4;
        default:
          return -3.0 * kPiOver4;
      }
    }
    switch (m) {
      case 0:
        return 0.0;
      case 1:
        return -0.0;
      case 2:
        return kPi;
      default:
        return -kPi;
    }
  }
  if (iy == 0x7ff00000) return hy < 0 ? -kPiOver2Hi : kPiOver2Hi;  // y = ±infinity
  // atan(|y/x|), without forming a quotient that overflows or underflows.
  const int k = (iy - ix) >> 20;
  double z;
  if (k > 60) {  // |y/x| > 2^60
    z = kPiOver2Hi + 0.5 * kPiLo;
  } else if (hx < 0 && k < -60) {  // |y/x| < 2^-60 and x < 0
    z = 0.0;
  } else {
    z = atan(std::fabs(y / x));
  }
  switch (m) {
    case 0:
      return z;
    case 1:
      return -z;
    case 2:
      return kPi - (z - kPiLo);
    default:
      return (z - kPiLo) - kPi;
  }
}

// ---- sinh, cosh, tanh ---------------------------------------------------------------------------
// From E = expm1(|x|) near zero (no cancellation) and from exp(|x|) beyond; past ln(DBL_MAX),
// exp(|x|/2)^2 / 2 reaches the results exp(|x|) itself would overflow on.

namespace {
/// Whether |x| (x's high word ix, low word lx) is at most the overflow threshold of sinh and
/// cosh, ln(DBL_MAX) + ln 2 ~ 710.4758600739439.
bool below_cosh_overflow(int32_t ix, uint32_t lx) {
  return ix < 0x408633ce || (ix == 0x408633ce && lx <= 0x8fb9f87du);
}
}  // namespace

double sinh(double x) {
  const int32_t jx = high_word(x);
  const int32_t ix = jx & 0x7fffffff;
  if (ix >= 0x7ff00000) return x + x;  // an infinity or NaN
  const double h = jx < 0 ? -0.5 : 0.5;
  if (ix < 0x40360000) {            // |x| < 22: (E + E / (E + 1)) / 2
    if (ix < 0x3e300000) return x;  // |x| < 2^-28: sinh(x) rounds to x
    const double t = expm1(std::fabs(x));
    if (ix < 0x3ff00000) return h * (2.0 * t - t * t / (t + 1.0));
    return h * (t + t / (t + 1.0));
  }
  if (ix < 0x40862e42) return h * exp(std::fabs(x));  // |x| < ln(DBL_MAX)
  if (below_cosh_overflow(ix, low_word(x))) {
    const double w = exp(0.5 * std::fabs(x));
    const double t = h * w;
    return t * w;
  }
  return x * 1.0e307;  // overflow
}

double cosh(double x) {
  const int32_t ix = abs_high_word(x);
  if (ix >= 0x7ff00000) return x * x;  // an infinity or NaN
  if (ix < 0x3fd62e43) {               // |x| < ln2/2: 1 + E^2 / (2 (1 + E))
    const double t = expm1(std::fabs(x));
    const double w = 1.0 + t;
    if (ix < 0x3c800000) return w;  // |x| < 2^-55
    return 1.0 + (t * t) / (w + w);
  }
  if (ix < 0x40360000) {  // |x| < 22: (exp(|x|) + 1/exp(|x|)) / 2
    const double t = exp(std::fabs(x));
    return 0.5 * t + 0.5 / t;
  }
  if (ix < 0x40862e42) return 0.5 * exp(std::fabs(x));  // |x| < ln(DBL_MAX)
  if (below_cosh_overflow(ix, low_word(x))) {
    const double w = exp(0.5 * std::fabs(x));
    const double t = 0.5 * w;
    return t * w;
  }
  return kInfinity;
}

double tanh(double x) {
  const int32_t jx = high_word(x);
  const int32_t ix = jx & 0x7fffffff;
  if (ix >= 0x7ff00000) {  // tanh(±infinity) = ±1; NaN stays NaN
    if (jx >= 0) return 1.0 / x + 1.0;
    return 1.0 / x - 1.0;
  }
  double z;
  if (ix < 0x40360000) {                        // |x| < 22
    if (ix < 0x3c800000) return x * (1.0 + x);  // |x| < 2^-55
    if (ix >= 0x3ff00000) {                     // |x| >= 1: 1 - 2 / (expm1(2|x|) + 2)
      const double t = expm1(2.0 * std::fabs(x));
      z = 1.0 - 2.0 / (t + 2.0);
    } else {  // -expm1(-2|x|) / (expm1(-2|x|) + 2)
      const double t = expm1(-2.0 * std::fabs(x));
      z = -t / (t + 2.0);
    }
  } else {  // |x| >= 22: ±1
    z = 1.0;
  }
  return jx >= 0 ? z : -z;
}

// ---- cbrt ---------------------------------------------------------------------------------------
// A 5-bit guess from dividing the exponent field by 3, a rational step to 23 bits, rounding up
// to 20 bits (so that t*t is exact), then one Newton step to 53 bits (error 0.667 ulp).

double cbrt(double x) {
  constexpr uint32_t kB1 = 715094163;           // (682 - 0.03306235651) * 2^20
  constexpr uint32_t kB2 = 696219795;           // (664 - 0.03306235651) * 2^20
  constexpr double kC = 0x1.15f15f15f15f1p-1;   // 19/35
  constexpr double kD = -0x1.691de2532c834p-1;  // -864/1225
  constexpr double kE = 0x1.6a0ea0ea0ea0fp0;    // 99/70
  constexpr double kF = 0x1.9b6db6db6db6ep0;    // 45/28
  constexpr double kG = 0x1.6db6db6db6db7p-2;   // 5/14
  if (x == 0.0 || !std::isfinite(x)) return x;
  const double sign = x < 0.0 ? -1.0 : 1.0;
  x = std::fabs(x);
  double t;
  if (x < 0x1p-1022) {  // subnormal: guess from x * 2^54
    t = 0x1p54 * x;
    t = with_high_word(t, static_cast<int32_t>(static_cast<uint32_t>(high_word(t)) / 3 + kB2));
  } else {
    t = from_words(static_cast<int32_t>(static_cast<uint32_t>(high_word(x)) / 3 + kB1), 0);
  }
  double r = t * t / x;
  double s = kC + r * t;
  t *= kG + kF / (s + kE + kD / s);
  // Cut to 20 bits and round up: t*t is then exact and t is larger than cbrt(x).
  t = clear_low_word(t);
  t = with_high_word(t, high_word(t) + 1);
  s = t * t;
  r = x / s;
  const double w = t + t;
  r = (r - t) / (w + r);
  t = t + t * r;
  return sign * t;
}

// ---- pow ----------------------------------------------------------------------------------------
// x^y = 2^(y log2(x)): log2(|x|) = t1 + t2 to about 80 bits (t1 with its low word cleared), from
// |x| = 2^n (1 + f) and log((1 + s) / (1 - s)), s = (f - c) / (f + c) around c = 1 or 1.5;
// y log2(x) = p_h + p_l by splitting y the same way; then 2^(p_h + p_l) = 2^m 2^r with
// |r| <= 1/2, 2^r by exp's rational form, and 2^m added to the exponent field. The special
// cases come first, as Java specifies them.

namespace {
constexpr double kPowInvLn2 = 0x1.71547652b82fep0;
constexpr double kPowInvLn2Hi = 0x1.715476p0;  // 24 bits of 1/ln2
constexpr double kPowInvLn2Lo = 0x1.4ae0bf85ddf44p-26;
constexpr double kPowCp = 0x1.ec709dc3a03fdp-1;  // 2/(3 ln2)
constexpr double kPowCpHi = 0x1.ec709ep-1;
constexpr double kPowCpLo = -0x1.e2fe0145b01f5p-28;
constexpr double kPowDpHi = 0x1.2b8034p-1;  // log2(1.5), high part
constexpr double kPowDpLo = 0x1.cfdeb43cfd006p-27;
// (3/2) (log(x) - 2s - 2/3 s^3) ~ s^4 (L1 + s^2 (L2 + ...)).
constexpr double kPowL1 = 0x1.3333333333303p-1;
constexpr double kPowL2 = 0x1.b6db6db6fabffp-2;
constexpr double kPowL3 = 0x1.55555518f264dp-2;
constexpr double kPowL4 = 0x1.17460a91d4101p-2;
constexpr double kPowL5 = 0x1.d864a93c9db65p-3;
constexpr double kPowL6 = 0x1.a7e284a454eefp-3;
constexpr double kPowLn2 = 0x1.62e42fefa39efp-1;
constexpr double kPowLn2Hi = 0x1.62e43p-1;
constexpr double kPowLn2Lo = -0x1.05c610ca86c39p-29;
// -(1024 - log2(DBL_MAX + ulp/2)): how far past 1024 a product may round and still not overflow.
constexpr double kPowOverflowMargin = 8.0085662595372944372e-17;

/// log2(x) for 1 - 2^-20 < x < 1 + 2^-20 (x positive): x - 1 - (x-1)^2/2 + ... scaled by 1/ln2.
void log2_near_one(double x, double* t1, double* t2) {
  const double t = x - 1.0;  // exact, with 20 trailing zeros
  const double w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
  const double u = kPowInvLn2Hi * t;
  const double v = t * kPowInvLn2Lo - w * kPowInvLn2;
  *t1 = clear_low_word(u + v);
  *t2 = v - (*t1 - u);
}

/// log2(x) for positive, finite x: x = 2^n (1 + f) with 1 + f near 1 or 1.5 (bp), then
/// log2(1 + f) = log2(bp) + 2/(3 ln2) * (3/2) log((1 + s) / (1 - s)), s = (1 + f - bp)/(1 + f +
/// bp).
void log2_general(double ax, double* t1, double* t2) {
  int32_t ix = high_word(ax);
  int n = 0;
  if (ix < 0x00100000) {  // subnormal
    ax *= 0x1p53;
    n -= 53;
    ix = high_word(ax);
  }
  n += (ix >> 20) - 0x3ff;
  const int32_t j = ix & 0x000fffff;
  ix = j | 0x3ff00000;  // the significand in [1, 2)
  int k;
  if (j <= 0x3988e) {  // below sqrt(3/2): around 1
    k = 0;
  } else if (j < 0xbb67a) {  // below sqrt(3): around 1.5
    k = 1;
  } else {  // halve, around 1
    k = 0;
    n += 1;
    ix -= 0x00100000;
  }
  ax = with_high_word(ax, ix);
  const double bp = 1.0 + 0.5 * k;
  // s = s_h + s_l = (ax - bp) / (ax + bp), s_h with its low word cleared.
  double u = ax - bp;
  double v = 1.0 / (ax + bp);
  const double s = u * v;
  const double s_h = clear_low_word(s);
  double t_h = from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0);  // ax + bp, high
  double t_l = ax - (t_h - bp);
  const double s_l = v * ((u - s_h * t_h) - s_h * t_l);
  // log(ax) / 2 ... as 3 + s^2 + r, times s, in head and tail parts.
  double s2 = s * s;
  double r = s2 * s2 *
             (kPowL1 + s2 * (kPowL2 + s2 * (kPowL3 + s2 * (kPowL4 + s2 * (kPowL5 + s2 * kPowL6)))));
  r += s_l * (s_h + s);
  s2 = s_h * s_h;
  t_h = clear_low_word(3.0 + s2 + r);
  t_l = r - ((t_h - 3.0) - s2);
  u = s_h * t_h;
  v = s_l * t_h + t_l * s;
  const double p_h = clear_low_word(u + v);
  const double p_l = v - (p_h - u);
  // Times 2/(3 ln2), plus log2(bp) and n.
  const double z_h = kPowCpHi * p_h;
  const double z_l = kPowCpLo * p_h + p_l * kPowCp + kPowDpLo * k;
  const double t = n;
  *t1 = clear_low_word(((z_h + z_l) + kPowDpHi * k) + t);
  *t2 = z_l - (((*t1 - t) - kPowDpHi * k) - z_h);
}
}  // namespace

double pow(double x, double y) {
  if (y == 0.0) return 1.0;
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const double ay = std::fabs(y);
  const double ax = std::fabs(x);
  if (y == 2.0) return x * x;
  if (y == 0.5) {
    if (x >= -std::numeric_limits<double>::max()) return std::sqrt(x + 0.0);  // -0.0 -> +0.0
  } else if (ay == 1.0) {
    return y == 1.0 ? x : 1.0 / x;
  } else if (ay == kInfinity) {
    if (ax == 1.0) return kNaN;
    if (ax > 1.0) return y >= 0 ? y : 0.0;
    return y < 0 ? -y : 0.0;
  }
  const int32_t hx = high_word(x);
  const bool negative = hx < 0;
  // For negative x, whether y is an integer and its parity: 0 not an integer, 1 odd, 2 even.
  int y_parity = 0;
  if (negative) {
    if (ay >= 0x1p53) {
      y_parity = 2;
    } else if (ay >= 1.0) {
      const auto integral = static_cast<int64_t>(ay);
      if (static_cast<double>(integral) == ay) y_parity = 2 - static_cast<int>(integral & 1);
    }
  }
  if (ax == 0.0 || ax == kInfinity || ax == 1.0) {
    double z = y < 0.0 ? 1.0 / ax : ax;
    if (negative) {
      if (ax == 1.0 && y_parity == 0) return kNaN;  // (-1)^non-integer
      if (y_parity == 1) z = -1.0 * z;
    }
    return z;
  }
  if (negative && y_parity == 0) return kNaN;  // negative^non-integer
  const double sign = negative && y_parity == 1 ? -1.0 : 1.0;

  double t1, t2;
  if (ay > 0x1.00000ffffffffp31) {  // |y| > 2^31: overflow or underflow unless x is near 1
    if (ax < 0x1.fffff00000000p-1) return y < 0.0 ? sign * kInfinity : sign * 0.0;
    if (ax > 0x1.00000ffffffffp0) return y > 0.0 ? sign * kInfinity : sign * 0.0;
    log2_near_one(ax, &t1, &t2);
  } else {
    log2_general(ax, &t1, &t2);
  }

  // y log2(x) = p_h + p_l, y split into its leading 21 bits and the rest.
  const double y1 = clear_low_word(y);
  const double p_l = (y - y1) * t1 + y * t2;
  double p_h = y1 * t1;
  double z = p_l + p_h;
  int32_t j = high_word(z);
  const int32_t i = static_cast<int32_t>(low_word(z));
  if (j >= 0x40900000) {  // z >= 1024
    if (((j - 0x40900000) | i) != 0) return sign * kInfinity;
    if (p_l + kPowOverflowMargin > z - p_h) return sign * kInfinity;
  } else if ((j & 0x7fffffff) >= 0x4090cc00) {  // z <= -1075
    if (((static_cast<uint32_t>(j) - 0xc090cc00u) | static_cast<uint32_t>(i)) != 0)
      return sign * 0.0;
    if (p_l <= z - p_h) return sign * 0.0;
  }

  // m = z rounded to the nearest integer (when |z| > 1/2), taken out of p_h exactly.
  const int32_t az = j & 0x7fffffff;
  int k = (az >> 20) - 0x3ff;
  int m = 0;
  if (az > 0x3fe00000) {
    m = j + (0x00100000 >> (k + 1));
    k = ((m & 0x7fffffff) >> 20) - 0x3ff;
    const double integral = from_words(m & ~(0x000fffff >> k), 0);
    m = ((m & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) m = -m;
    p_h -= integral;
  }
  // 2^r = exp(r ln2), r ln2 = u + v in head and tail.
  double t = clear_low_word(p_l + p_h);
  const double u = t * kPowLn2Hi;
  const double v = (p_l - (t - p_h)) * kPowLn2 + t * kPowLn2Lo;
  z = u + v;
  const double w = v - (z - u);
  t = z * z;
  const double c = z - t * (kExpP1 + t * (kExpP2 + t * (kExpP3 + t * (kExpP4 + t * kExpP5))));
  const double r = (z * c) / (c - 2.0) - (w + z * w);
  z = 1.0 - (r - z);
  j = static_cast<int32_t>(static_cast<uint32_t>(high_word(z)) + (static_cast<uint32_t>(m) << 20));
  if ((j >> 20) <= 0) {
    z = std::ldexp(z, m);  // a subnormal result
  } else {
    z = add_to_exponent(z, m);
  }
  return sign * z;
}

// ---- hypot --------------------------------------------------------------------------------------
// sqrt(a^2 + b^2) for a >= b >= 0, with a^2 + b^2 formed to better than 1/sqrt(2) ulp by
// splitting a (or 2a) and b into a head with its low word cleared and an exact tail; arguments
// scaled by 2^-600, 2^600 or 2^1022 first where squares would overflow or lose bits.

double hypot(double x, double y) {
  double a = std::fabs(x);
  double b = std::fabs(y);
  if (!std::isfinite(a) || !std::isfinite(b)) {
    if (a == kInfinity || b == kInfinity) return kInfinity;
    return a + b;  // NaN
  }
  if (b > a) std::swap(a, b);
  int32_t ha = high_word(a);
  int32_t hb = high_word(b);
  if ((ha - hb) > 0x3c00000) return a + b;  // a / b > 2^60
  int k = 0;
  if (a > 0x1.00000ffffffffp500) {  // a > 2^500: scale both by 2^-600
    ha -= 0x25800000;
    hb -= 0x25800000;
    a = a * 0x1p-600;
    b = b * 0x1p-600;
    k += 600;
  }
  if (b < 0x1p-500) {
    if (b < std::numeric_limits<double>::min()) {  // subnormal b or 0
      if (b == 0.0) return a;
      // Scale by 2^1022. The split below keeps using the unscaled high words, as fdlibm does.
      b *= 0x1p1022;
      a *= 0x1p1022;
      k -= 1022;
    } else {  // scale both by 2^600
      ha += 0x25800000;
      hb += 0x25800000;
      a = a * 0x1p600;
      b = b * 0x1p600;
      k -= 600;
    }
  }
  double w = a - b;
  if (w > b) {  // a > 2b: a^2 + b^2 = t1^2 + (b^2 + t2 (a + t1)), t1 = a's head
    const double t1 = from_words(ha, 0);
    const double t2 = a - t1;
    w = std::sqrt(t1 * t1 - (b * (-b) - t2 * (a + t1)));
  } else {  // a <= 2b: with t1 = 2a's head, y1 = b's head: t1 y1 + ((a - b)^2 + (t1 y2 + t2 b))
    a = a + a;
    const double y1 = from_words(hb, 0);
    const double y2 = b - y1;
    const double t1 = from_words(ha + 0x00100000, 0);
    const double t2 = a - t1;
    w = std::sqrt(t1 * y1 - (w * (-w) - (t1 * y2 + t2 * b)));
  }
  if (k != 0) return std::ldexp(1.0, k) * w;
  return w;
}

}  // namespace ember::functions::strict_math
