#pragma once

// Exact arithmetic on Spark decimals: unscaled values in 128-bit integers, with a 256-bit path
// for the intermediate results that do not fit (products, scaled dividends). Rounding is
// HALF_UP, as Spark's Decimal.toPrecision does.

#include <string>

#include "column/value.h"
#include "types/data_type.h"

namespace ember::functions {

/// 10^n for 0 <= n <= 38.
int128_t pow10_i128(int n);

/// Whether |v| < 10^precision.
bool decimal_fits(int128_t v, int precision);

/// v (at scale `from`) at scale `to`: multiplied when the scale grows, divided and rounded
/// HALF_UP when it shrinks. False when the result does not fit in 128 bits.
bool decimal_rescale(int128_t v, int from, int to, int128_t* out);

/// round_half_up(a * b / 10^shift) for shift >= 0. False when the result does not fit.
bool decimal_multiply(int128_t a, int128_t b, int shift, int128_t* out);

/// round_half_up(a * 10^shift / b) (shift may be negative: a / (b * 10^-shift)); b != 0.
/// With `round` false the quotient is truncated toward zero instead (integral division).
/// False when the result does not fit.
bool decimal_divide(int128_t a, int128_t b, int shift, int128_t* out, bool round = true);

/// round_half_up((a at scale sa + b at scale sb) at scale `to`), exactly, for to <= max(sa, sb):
/// the sum at the common scale may need more than 128 bits (two 38-digit values, or a value
/// scaled up by many digits) while the rounded result fits. False when the result does not fit.
bool decimal_add(int128_t a, int sa, int128_t b, int sb, int to, int128_t* out);

/// -v of a DECIMAL(precision, scale) value as Spark's Decimal negates it: values wider than 34
/// digits are rounded to 34 significant digits (HALF_EVEN, Scala's default MathContext) and
/// brought back to `scale`. A result beyond `precision` digits is NUMERIC_VALUE_OUT_OF_RANGE
/// whatever the ANSI mode (-(-99999999999999999999.999999999999999999) rounds to 10^20).
int128_t decimal_negate(int128_t v, int precision, int scale);

/// Java's BigDecimal.toString of unscaled × 10^-scale: plain digits, or scientific notation when
/// the scale is negative or the adjusted exponent is below -6 (0E-18, 1.000E+35).
std::string java_decimal_string(int128_t unscaled, int scale);

/// Spark's DecimalType.adjustPrecisionScale (precision loss allowed, the default): a result
/// type wider than 38 digits keeps its integral digits and at least min(scale, 6) fraction digits.
TypePtr decimal_adjusted(int precision, int scale);

/// The decimal type an integral type widens to in decimal arithmetic (INT → DECIMAL(10,0)).
TypePtr integral_as_decimal(const TypePtr& t);

/// The SparkError of a value that does not fit its decimal type (ANSI mode).
[[noreturn]] void decimal_out_of_range(int128_t unscaled, int scale, int precision, int target_scale);
/// As above for a value shown as text (an exact value wider than 128 bits, a double).
[[noreturn]] void decimal_out_of_range_text(const std::string& value, int precision, int scale);
/// The error Spark raises in every mode when a value rounded to a decimal type's scale exceeds
/// its precision: "The <rounded> rounded half up from <original> cannot be represented as ...".
[[noreturn]] void decimal_rounded_out_of_range(const std::string& rounded, const std::string& original,
                                               int precision, int scale);

}  // namespace ember::functions

#include <optional>

#include "functions/function.h"

namespace ember::functions {

/// The operators with decimal forms.
enum class DecimalOp { kAdd, kSub, kMul, kDiv, kRem, kPmod };

/// The signature of a binary operator when a decimal takes part and no floating point value
/// does: integral operands widen to decimals, the result type follows Spark's precision and
/// scale rules. Nothing for other operand types.
std::optional<Signature> decimal_arith_signature(DecimalOp op, const TypePtr& a, const TypePtr& b,
                                                 const Config& conf);

/// Evaluates a decimal operator over two decimal columns (of the signature's argument types).
ColumnPtr decimal_arith(DecimalOp op, const Column& a, const Column& b, int64_t n, const Signature& sig,
                        const EvalContext& ctx);

}  // namespace ember::functions

namespace ember::functions {

/// sum / avg of a decimal column (aggregates_decimal.cc).
std::unique_ptr<AggregateFunction> make_decimal_sum_avg(const Signature& sig, const EvalContext& ctx, bool avg);

}  // namespace ember::functions
