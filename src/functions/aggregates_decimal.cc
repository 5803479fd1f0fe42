// sum and avg of decimals: exact 128-bit sums; sum's result is DECIMAL(p + 10, s), avg's is
// the sum divided by the count as Spark's decimal division does it, then rounded to
// DECIMAL(p + 4, s + 4). A sum that leaves its type is an ANSI error or null.

#include "functions/decimal_util.h"

namespace ember::functions {
namespace {

struct DecimalSumState {
  int128_t sum;
  int64_t count;
  bool overflow;
};

class DecimalSumAvg final : public AggregateFunction {
 public:
  DecimalSumAvg(const Signature& sig, bool ansi, bool avg)
      : in_(sig.arg_types[0]), out_(sig.result_type), ansi_(ansi), avg_(avg) {
    sum_type_ = DataType::decimal(std::min(38, in_->precision() + 10), in_->scale());
    // Spark: Divide(sum, CAST(count AS DECIMAL(20, 0))) at that division's result type, then a
    // cast to avg's result type; both steps round HALF_UP.
    div_scale_ = decimal_arith_signature(DecimalOp::kDiv, sum_type_, DataType::decimal(20, 0), Config())
                     ->result_type->scale();
  }
  size_t state_size() const override { return sizeof(DecimalSumState); }
  void init(uint8_t* s) const override { *reinterpret_cast<DecimalSumState*>(s) = {0, 0, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    const int128_t* x = c.values<int128_t>();
    const uint8_t* valid = c.validity_bits();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || (valid && !get_bit(valid, i))) continue;
      auto* s = reinterpret_cast<DecimalSumState*>(states[i]);
      s->overflow |= __builtin_add_overflow(s->sum, x[i], &s->sum);
      ++s->count;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<DecimalSumState*>(dst);
    auto* s = reinterpret_cast<const DecimalSumState*>(src);
    d->overflow |= s->overflow || __builtin_add_overflow(d->sum, s->sum, &d->sum);
    d->count += s->count;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const DecimalSumState*>(states[i]);
      if (s->count == 0) {
        out.append_null();
        continue;
      }
      bool fits = !s->overflow && decimal_fits(s->sum, sum_type_->precision());
      if (!fits) {
        if (ansi_) {
          if (!s->overflow) decimal_out_of_range(s->sum, in_->scale(), sum_type_->precision(), sum_type_->scale());
          decimal_out_of_range_text("The sum", sum_type_->precision(), sum_type_->scale());
        }
        out.append_null();
        continue;
      }
      if (!avg_) {
        out.append<int128_t>(s->sum);
        continue;
      }
      int128_t q, r;
      bool ok = decimal_divide(s->sum, s->count, div_scale_ - sum_type_->scale(), &q) &&
                decimal_rescale(q, div_scale_, out_->scale(), &r) && decimal_fits(r, out_->precision());
      if (!ok) {
        if (ansi_) decimal_out_of_range_text("The average", out_->precision(), out_->scale());
        out.append_null();
        continue;
      }
      out.append<int128_t>(r);
    }
  }

 private:
  TypePtr in_, out_, sum_type_;
  int div_scale_ = 0;
  bool ansi_, avg_;
};

}  // namespace

std::unique_ptr<AggregateFunction> make_decimal_sum_avg(const Signature& sig, const EvalContext& ctx, bool avg) {
  return std::make_unique<DecimalSumAvg>(sig, ctx.ansi, avg);
}

}  // namespace ember::functions
