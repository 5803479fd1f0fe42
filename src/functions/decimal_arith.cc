// + - * / % pmod on decimals, exactly as Spark computes them: the exact result, rounded HALF_UP
// to the result type's scale, then checked against its precision (ANSI error or null).

#include <algorithm>

#include "functions/decimal_util.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

/// What one row of an operator gives: a value, an overflow, or a division by zero.
enum class Outcome { kValue, kOverflow, kDivideByZero };

}  // namespace

std::optional<Signature> decimal_arith_signature(DecimalOp op, const TypePtr& a_in, const TypePtr& b_in,
                                                 const Config& conf) {
  if (a_in->id() != TypeId::kDecimal && b_in->id() != TypeId::kDecimal) return std::nullopt;
  TypePtr a = integral_as_decimal(a_in->id() == TypeId::kNull ? b_in : a_in);
  TypePtr b = integral_as_decimal(b_in->id() == TypeId::kNull ? a_in : b_in);
  if (a->id() != TypeId::kDecimal || b->id() != TypeId::kDecimal) return std::nullopt;
  const int p1 = a->precision(), s1 = a->scale(), p2 = b->precision(), s2 = b->scale();
  TypePtr result;
  switch (op) {
    case DecimalOp::kAdd:
    case DecimalOp::kSub: {
      int s = std::max(s1, s2);
      result = decimal_adjusted(std::max(p1 - s1, p2 - s2) + s + 1, s);
      break;
    }
    case DecimalOp::kMul: result = decimal_adjusted(p1 + p2 + 1, s1 + s2); break;
    case DecimalOp::kDiv: {
      int s = std::max(6, s1 + p2 + 1);
      result = decimal_adjusted(p1 - s1 + s2 + s, s);
      break;
    }
    case DecimalOp::kRem:
    case DecimalOp::kPmod: {
      int s = std::max(s1, s2);
      result = decimal_adjusted(std::min(p1 - s1, p2 - s2) + s, s);
      break;
    }
  }
  Signature sig;
  sig.arg_types = {a, b};
  sig.result_type = result;
  // Overflow is null when ANSI is off; division and remainder by zero too.
  sig.may_introduce_null = !conf.ansi_enabled() || op == DecimalOp::kDiv || op == DecimalOp::kRem ||
                           op == DecimalOp::kPmod;
  return sig;
}

namespace {

/// + - * whose result type is the exact one (the 38-digit cap took nothing): no value can
/// overflow it, so whole columns compute without checks. Arithmetic is unsigned so that the
/// undefined values under null rows wrap instead of being undefined behaviour.
ColumnPtr exact_decimal_arith(DecimalOp op, const Column& a, const Column& b, int64_t n, const TypePtr& rtype,
                              int common) {
  using u128 = unsigned __int128;
  const int s1 = a.type()->scale(), s2 = b.type()->scale();
  const u128 m1 = static_cast<u128>(pow10_i128(common - s1));
  const u128 m2 = static_cast<u128>(pow10_i128(common - s2));
  const bool narrow = a.type()->precision() <= 18 && b.type()->precision() <= 18;
  switch (op) {
    case DecimalOp::kAdd:
      return binary_fixed<int128_t, int128_t, int128_t, false>(a, b, n, rtype, [=](int128_t l, int128_t r) {
        return static_cast<int128_t>(static_cast<u128>(l) * m1 + static_cast<u128>(r) * m2);
      });
    case DecimalOp::kSub:
      return binary_fixed<int128_t, int128_t, int128_t, false>(a, b, n, rtype, [=](int128_t l, int128_t r) {
        return static_cast<int128_t>(static_cast<u128>(l) * m1 - static_cast<u128>(r) * m2);
      });
    default:
      // Values of at most 18 digits are 64-bit integers: one widening multiply.
      if (narrow)
        return binary_fixed<int128_t, int128_t, int128_t, false>(a, b, n, rtype, [](int128_t l, int128_t r) {
          return static_cast<int128_t>(static_cast<int64_t>(l)) * static_cast<int64_t>(r);
        });
      return binary_fixed<int128_t, int128_t, int128_t, false>(a, b, n, rtype, [](int128_t l, int128_t r) {
        return static_cast<int128_t>(static_cast<u128>(l) * static_cast<u128>(r));
      });
  }
}

}  // namespace

ColumnPtr decimal_arith(DecimalOp op, const Column& a, const Column& b, int64_t n, const Signature& sig,
                        const EvalContext& ctx) {
  const int s1 = a.type()->scale(), s2 = b.type()->scale();
  const int p1 = a.type()->precision(), p2 = b.type()->precision();
  const int p = sig.result_type->precision(), s = sig.result_type->scale();
  const int common = std::max(s1, s2);
  const bool exact_add = (op == DecimalOp::kAdd || op == DecimalOp::kSub) && s == common &&
                         p == std::max(p1 - s1, p2 - s2) + common + 1;
  const bool exact_mul = op == DecimalOp::kMul && s == s1 + s2 && p == p1 + p2 + 1;
  if ((exact_add || exact_mul) && a.type()->id() == TypeId::kDecimal && b.type()->id() == TypeId::kDecimal)
    return exact_decimal_arith(op, a, b, n, sig.result_type, common);
  const int128_t bound = pow10_i128(p);
  const int128_t* x = a.values<int128_t>();
  const int128_t* y = b.values<int128_t>();
  // The exact result of one row at scale `*at`, or why there is none.
  auto compute = [&](int128_t l, int128_t r, int128_t* out) -> Outcome {
    int128_t lc, rc, v;
    switch (op) {
      case DecimalOp::kAdd:
      case DecimalOp::kSub:
        // A decimal's unscaled value is above -10^38, so -r cannot overflow.
        if (!decimal_add(l, s1, op == DecimalOp::kAdd ? r : -r, s2, s, out)) return Outcome::kOverflow;
        break;
      case DecimalOp::kMul:
        if (!decimal_multiply(l, r, s1 + s2 - s, out)) return Outcome::kOverflow;
        break;
      case DecimalOp::kDiv:
        if (r == 0) return Outcome::kDivideByZero;
        if (!decimal_divide(l, r, s - s1 + s2, out)) return Outcome::kOverflow;
        break;
      case DecimalOp::kRem:
      case DecimalOp::kPmod:
        if (r == 0) return Outcome::kDivideByZero;
        if (!decimal_rescale(l, s1, common, &lc) || !decimal_rescale(r, s2, common, &rc)) return Outcome::kOverflow;
        v = lc % rc;
        if (op == DecimalOp::kPmod && v < 0) v = (v + rc) % rc;
        if (!decimal_rescale(v, common, s, out)) return Outcome::kOverflow;
        break;
    }
    return *out < bound && *out > -bound ? Outcome::kValue : Outcome::kOverflow;
  };
  BufferPtr in_valid = and_validity({&a, &b}, n);
  const uint8_t* valid = in_valid ? in_valid->data() : nullptr;
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int128_t));
  auto validity = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
  int128_t* out = data->mutable_as<int128_t>();
  uint8_t* out_valid = validity->mutable_data();
  // A product at the scale of its factors whose factors have at most 64 bits (the values of a
  // wider type that happen to be small) is one widening multiply and a bound check.
  const bool plain_mul = op == DecimalOp::kMul && s == s1 + s2;
  for (int64_t i = 0; i < n; ++i) {
    out[i] = 0;
    if (valid && !get_bit(valid, i)) continue;
    if (plain_mul && x[i] == static_cast<int64_t>(x[i]) && y[i] == static_cast<int64_t>(y[i])) {
      const int128_t v = static_cast<int128_t>(static_cast<int64_t>(x[i])) * static_cast<int64_t>(y[i]);
      if (v < bound && v > -bound) {
        out[i] = v;
        set_bit(out_valid, i);
        continue;
      }
    }
    int128_t v = 0;
    switch (compute(x[i], y[i], &v)) {
      case Outcome::kValue:
        out[i] = v;
        set_bit(out_valid, i);
        break;
      case Outcome::kDivideByZero:
        if (ctx.ansi) {
          if (op == DecimalOp::kDiv) throw_divide_by_zero();
          throw_remainder_by_zero();
        }
        break;
      case Outcome::kOverflow:
        if (ctx.ansi) {
          // The value Spark shows is the exact result; when it fits 128 bits at the result
          // scale it is that, otherwise only its type is known.
          if (decimal_fits(v, 38) && v != 0) decimal_out_of_range(v, s, p, s);
          decimal_out_of_range_text("The result", p, s);
        }
        break;
    }
  }
  return Column::make(sig.result_type, n, validity, data);
}

}  // namespace ember::functions
