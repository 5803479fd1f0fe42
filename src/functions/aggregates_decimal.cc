// sum and avg of decimals, as Spark computes them. sum's result is DECIMAL(p + 10, s) and avg's
// DECIMAL(p + 4, s + 4) (at most 38 digits each); avg divides the sum by the count at scale 39
// and rounds that quotient to its result scale, both HALF_UP, as Spark's decimal division and
// toPrecision do.
//
// Where a sum may leave its type before the end follows where Spark keeps it. A grouped
// aggregation keeps its sums in fixed-width rows, which cannot hold a decimal wider than the
// type: the sum is lost the moment it leaves, even when later rows would bring it back. Without
// grouping keys the running sum of a partition is exact, and only the partition's partial sum
// must fit (it crosses an exchange in a row); the partial sums add up exactly again, and the
// total is checked once at the end. A lost sum is ARITHMETIC_OVERFLOW ("Overflow in sum of
// decimals") in ANSI mode; a total or an average that does not fit its result type is
// NUMERIC_VALUE_OUT_OF_RANGE; both are null otherwise, and always for try_sum and try_avg.

#include <algorithm>
#include <string>

#include "common/error.h"
#include "functions/aggregate_scope.h"
#include "functions/decimal_util.h"
#include "functions/rand.h"

namespace ember::functions {
namespace {

/// An exact sum of decimals beyond 128 bits: lo + hi * 2^128, with lo taken as signed.
struct WideSum {
  int128_t lo;
  int64_t hi;

  void add(int128_t v) {
    if (__builtin_add_overflow(lo, v, &lo)) hi += v > 0 ? 1 : -1;
  }
  void add(const WideSum& w) {
    add(w.lo);
    hi += w.hi;
  }
  bool fits(int precision) const { return hi == 0 && decimal_fits(lo, precision); }
};

/// A magnitude of up to 192 bits in three 64-bit limbs, least significant first.
struct Magnitude {
  uint64_t limb[3];

  bool zero() const { return (limb[0] | limb[1] | limb[2]) == 0; }
  /// Divides by `d` in place and returns the remainder.
  uint64_t divide(uint64_t d) {
    unsigned __int128 r = 0;
    for (int i = 2; i >= 0; --i) {
      unsigned __int128 cur = (r << 64) | limb[i];
      limb[i] = static_cast<uint64_t>(cur / d);
      r = cur % d;
    }
    return static_cast<uint64_t>(r);
  }
  /// Adds one (the carry of a rounding).
  void increment() {
    for (uint64_t& l : limb)
      if (++l != 0) break;
  }
  /// The value when it fits in a non-negative int128_t.
  bool to_int128(int128_t* out) const {
    if (limb[2] != 0 || (limb[1] >> 63) != 0) return false;
    *out = static_cast<int128_t>((static_cast<unsigned __int128>(limb[1]) << 64) | limb[0]);
    return true;
  }
  std::string digits() const {
    if (zero()) return "0";
    Magnitude m = *this;
    std::string out;
    while (!m.zero()) {
      uint64_t chunk = m.divide(10000000000000000000ull);  // 10^19
      std::string part = std::to_string(chunk);
      if (!m.zero()) part.insert(0, 19 - part.size(), '0');
      out.insert(0, part);
    }
    return out;
  }
};

/// The magnitude of a wide sum, and whether it is negative.
Magnitude magnitude_of(const WideSum& w, bool* negative) {
  const auto lo = static_cast<unsigned __int128>(w.lo);
  // The third limb: hi plus the sign extension of lo.
  uint64_t top = static_cast<uint64_t>(w.hi) + (w.lo < 0 ? ~uint64_t{0} : 0);
  Magnitude m{{static_cast<uint64_t>(lo), static_cast<uint64_t>(lo >> 64), top}};
  *negative = (top >> 63) != 0;
  if (*negative) {  // two's complement negation of the 192 bits
    for (uint64_t& l : m.limb) l = ~l;
    m.increment();
  }
  return m;
}

/// Spark's text of a decimal value: its digits with `scale` of them after the point.
std::string decimal_text(bool negative, const std::string& digits, int scale) {
  std::string d = digits;
  if (static_cast<int>(d.size()) <= scale) d.insert(0, static_cast<size_t>(scale) + 1 - d.size(), '0');
  if (scale > 0) d.insert(d.size() - static_cast<size_t>(scale), ".");
  return (negative ? "-" : "") + d;
}

struct DecimalSumState {
  WideSum sum;  // grouped: the sum; otherwise the partial sums of the partitions closed so far
  WideSum open;  // without grouping keys: the running sum of partition `partition`
  int64_t count;
  int64_t partition;  // -1: no open partition
  bool lost;          // the sum left its type where Spark holds it in a row
};

/// The scale Spark's decimal division gives a quotient before it is rounded to avg's type.
constexpr int kQuotientScale = 39;

class DecimalSumAvg final : public AggregateFunction {
 public:
  DecimalSumAvg(const Signature& sig, bool ansi, bool avg)
      : in_(sig.arg_types[0]),
        out_(sig.result_type),
        sum_type_(DataType::decimal(std::min(38, in_->precision() + 10), in_->scale())),
        grouped_(grouped_aggregation()),
        ansi_(ansi),
        avg_(avg) {}
  size_t state_size() const override { return sizeof(DecimalSumState); }
  void init(uint8_t* s) const override {
    *reinterpret_cast<DecimalSumState*>(s) = {{0, 0}, {0, 0}, 0, -1, false};
  }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const int128_t* x = c.values<int128_t>();
    const uint8_t* valid = c.validity_bits();
    const int precision = sum_type_->precision();
    const int64_t partition = grouped_ ? 0 : current_partition().partition;
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || (valid && !get_bit(valid, i))) continue;
      auto* s = reinterpret_cast<DecimalSumState*>(states[i]);
      ++s->count;
      if (grouped_) {
        s->sum.add(x[i]);
        s->lost |= !s->sum.fits(precision);
        continue;
      }
      if (s->partition != partition) {
        close(*s);
        s->partition = partition;
      }
      s->open.add(x[i]);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<DecimalSumState*>(dst);
    DecimalSumState s = *reinterpret_cast<const DecimalSumState*>(src);
    d->count += s.count;
    d->lost |= s.lost;
    d->sum.add(s.sum);
    if (grouped_) {
      d->lost |= !d->sum.fits(sum_type_->precision());
      return;
    }
    // Rows of one partition that reached two states add up before the partition is closed.
    if (s.partition < 0) return;
    if (d->partition == s.partition) {
      d->open.add(s.open);
    } else if (d->partition < 0) {
      d->open = s.open;
      d->partition = s.partition;
    } else {
      // Only the open partition remains to add: the closed partitions' sum is in already.
      s.sum = {0, 0};
      close(s);
      d->lost |= s.lost;
      d->sum.add(s.sum);
    }
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      DecimalSumState s = *reinterpret_cast<const DecimalSumState*>(states[i]);
      close(s);
      if (s.count == 0) {
        out.append_null();
      } else if (s.lost) {
        if (ansi_) overflow_in_sum();
        out.append_null();
      } else if (avg_) {
        append_average(s.sum, s.count, out);
      } else if (s.sum.fits(out_->precision())) {
        out.append<int128_t>(s.sum.lo);
      } else {
        if (ansi_) {
          bool negative;
          Magnitude m = magnitude_of(s.sum, &negative);
          decimal_out_of_range_text(decimal_text(negative, m.digits(), in_->scale()), out_->precision(),
                                    out_->scale());
        }
        out.append_null();
      }
    }
  }

 private:
  /// Ends the open partition: its partial sum joins the total when it fits the sum's type.
  void close(DecimalSumState& s) const {
    if (s.partition < 0) return;
    if (s.open.fits(sum_type_->precision())) s.sum.add(s.open);
    else s.lost = true;
    s.open = {0, 0};
    s.partition = -1;
  }

  /// sum / count at scale 39 (HALF_UP), then at the result's scale (HALF_UP), or the error or
  /// null of a quotient that does not fit the result type.
  void append_average(const WideSum& sum, int64_t count, ColumnBuilder& out) const {
    bool negative;
    Magnitude q = magnitude_of(sum, &negative);
    const auto c = static_cast<uint64_t>(count);
    uint64_t r = q.divide(c);
    // The quotient's digits after the sum's scale, up to scale 39, then one more to round by.
    const int extra = kQuotientScale - in_->scale();
    std::string fraction;
    for (int k = 0; k <= extra; ++k) {
      unsigned __int128 t = static_cast<unsigned __int128>(r) * 10;
      fraction.push_back(static_cast<char>('0' + static_cast<int>(t / c)));
      r = static_cast<uint64_t>(t % c);
    }
    const bool up39 = fraction.back() >= '5';
    fraction.pop_back();
    if (up39) {  // the carry runs through the fraction's nines into the integral digits
      int k = extra - 1;
      while (k >= 0 && fraction[static_cast<size_t>(k)] == '9') fraction[static_cast<size_t>(k--)] = '0';
      if (k >= 0) ++fraction[static_cast<size_t>(k)];
      else q.increment();
    }
    const int keep = out_->scale() - in_->scale();
    int128_t v;
    bool fits = q.to_int128(&v);
    for (int k = 0; fits && k < keep; ++k)
      fits = !__builtin_mul_overflow(v, 10, &v) && !__builtin_add_overflow(v, fraction[static_cast<size_t>(k)] - '0', &v);
    if (fits && fraction[static_cast<size_t>(keep)] >= '5') fits = !__builtin_add_overflow(v, 1, &v);
    if (fits && decimal_fits(v, out_->precision())) {
      out.append<int128_t>(negative ? -v : v);
      return;
    }
    if (ansi_) decimal_out_of_range_text(decimal_text(negative, q.digits() + fraction, kQuotientScale),
                                         out_->precision(), out_->scale());
    out.append_null();
  }

  [[noreturn]] void overflow_in_sum() const {
    const std::string alternative =
        std::string(" Use '") + (avg_ ? "try_avg" : "try_sum") + "' to tolerate overflow and return NULL instead.";
    throw SparkError(ErrorKind::kArithmetic, "ARITHMETIC_OVERFLOW",
                     "Overflow in sum of decimals." + alternative +
                         " If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                     {{"message", "Overflow in sum of decimals"},
                      {"alternative", alternative},
                      {"config", "\"spark.sql.ansi.enabled\""}});
  }

  TypePtr in_, out_, sum_type_;
  bool grouped_, ansi_, avg_;
};

}  // namespace

std::unique_ptr<AggregateFunction> make_decimal_sum_avg(const Signature& sig, const EvalContext& ctx, bool avg) {
  return std::make_unique<DecimalSumAvg>(sig, ctx.ansi, avg);
}

}  // namespace ember::functions
