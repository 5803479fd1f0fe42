// Basic aggregate functions: count, sum, avg, try_sum, try_avg, min, max.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "column/compare.h"
#include "functions/aggregate_state.h"
#include "functions/decimal_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "functions/rand.h"

namespace ember::functions {
namespace {

[[noreturn]] void sum_overflow() {
  throw SparkError(ErrorKind::kArithmetic, "ARITHMETIC_OVERFLOW",
                   "long overflow. Use 'try_sum' to tolerate overflow and return NULL instead. If "
                   "necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.",
                   {{"message", "long overflow"},
                    {"alternative", " Use 'try_sum' to tolerate overflow and return NULL instead."},
                    {"config", "\"spark.sql.ansi.enabled\""}});
}

// ---- count ----------------------------------------------------------------------------------

class Count final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(int64_t); }
  void init(uint8_t* s) const override { *reinterpret_cast<int64_t*>(s) = 0; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    std::vector<const Column*> nullable;
    for (auto& a : args) {
      if (a->type()->id() == TypeId::kNull) return;  // never counts
      if (a->may_have_nulls()) nullable.push_back(a.get());
    }
    if (nullable.empty()) {  // count(*), or arguments without nulls: every row counts
      for (int64_t i = 0; i < n; ++i)
        if (states[i]) ++*reinterpret_cast<int64_t*>(states[i]);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      bool all_valid = true;
      for (const Column* a : nullable) all_valid &= a->is_valid(i);
      *reinterpret_cast<int64_t*>(states[i]) += all_valid;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    *reinterpret_cast<int64_t*>(dst) += *reinterpret_cast<const int64_t*>(src);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) out.append<int64_t>(*reinterpret_cast<const int64_t*>(states[i]));
  }
};

// ---- sum / avg ------------------------------------------------------------------------------

template <typename Acc>
struct SumState {
  Acc sum;
  int64_t count;
  bool overflow;
};

/// What an integral sum that leaves the long range gives: Spark's ANSI error, Java's
/// wrap-around (ANSI off), or null (try_sum).
enum class SumOverflow { kError, kWrap, kNull };

/// sum and avg over integral (accumulated as int64, ANSI overflow checked) or floating
/// (double) inputs. For avg, integral inputs are accumulated as double, as Spark does.
template <typename In, typename Acc, bool kAvg>
class SumAvg final : public AggregateFunction {
 public:
  explicit SumAvg(SumOverflow overflow) : overflow_(overflow) {}
  size_t state_size() const override { return sizeof(SumState<Acc>); }
  void init(uint8_t* s) const override { *reinterpret_cast<SumState<Acc>*>(s) = {Acc{}, 0, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const In* x = c.values<In>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      auto* s = reinterpret_cast<SumState<Acc>*>(states[i]);
      add(*s, static_cast<Acc>(x[i]));
      ++s->count;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<SumState<Acc>*>(dst);
    auto* s = reinterpret_cast<const SumState<Acc>*>(src);
    d->overflow |= s->overflow;
    add(*d, s->sum);
    d->count += s->count;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const SumState<Acc>*>(states[i]);
      if (s->count == 0 || s->overflow) {
        out.append_null();
      } else if constexpr (kAvg) {
        out.append<double>(static_cast<double>(s->sum) / static_cast<double>(s->count));
      } else {
        out.append<Acc>(s->sum);
      }
    }
  }

 private:
  void add(SumState<Acc>& s, Acc v) const {
    if constexpr (std::is_integral_v<Acc>) {
      if (__builtin_add_overflow(s.sum, v, &s.sum)) {
        if (overflow_ == SumOverflow::kError) sum_overflow();
        if (overflow_ == SumOverflow::kNull) s.overflow = true;
      }
    } else {
      s.sum += v;
    }
  }
  SumOverflow overflow_;
};

/// try_sum over integral inputs, as Spark's partial aggregation computes it: within a Spark
/// partition the running sum is lost (null) from the row where it overflows on, even when later
/// rows would bring it back; the partitions' partial sums then add up, null when one of them is
/// or when adding them overflows. So the result depends on where the partitions split the rows
/// (the partition each batch carries), as Spark's does.
class TrySumIntegral final : public AggregateFunction {
 public:
  struct State {
    int64_t sum;        // the partial sums of the partitions closed so far
    int64_t open;       // the running sum of partition `partition`
    int64_t count;
    int64_t partition;  // -1: no open partition
    bool lost;          // `sum` overflowed or took a lost partial sum
    bool open_lost;     // `open` overflowed
  };

  explicit TrySumIntegral(TypeId in) : in_(in) {}
  size_t state_size() const override { return sizeof(State); }
  void init(uint8_t* s) const override { *reinterpret_cast<State*>(s) = {0, 0, 0, -1, false, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const int64_t partition = current_partition().partition;
    dispatch_fixed(in_, [&]<typename In>() {
      if constexpr (std::is_integral_v<In>) {
        const In* x = c.values<In>();
        for (int64_t i = 0; i < n; ++i) {
          if (!states[i] || !c.is_valid(i)) continue;
          auto* s = reinterpret_cast<State*>(states[i]);
          if (s->partition != partition) {
            close(*s);
            s->partition = partition;
          }
          s->open_lost |= __builtin_add_overflow(s->open, static_cast<int64_t>(x[i]), &s->open);
          ++s->count;
        }
      }
    });
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* d = reinterpret_cast<State*>(dst);
    State s = *reinterpret_cast<const State*>(src);
    d->count += s.count;
    // Rows of one partition that reached two states add up before the partition is closed.
    if (s.partition >= 0 && s.partition == d->partition) {
      d->open_lost |= s.open_lost || __builtin_add_overflow(d->open, s.open, &d->open);
      s.partition = -1;
    } else if (s.partition >= 0 && d->partition < 0) {
      d->open = s.open;
      d->open_lost = s.open_lost;
      d->partition = s.partition;
      s.partition = -1;
    }
    close(s);
    d->lost |= s.lost || __builtin_add_overflow(d->sum, s.sum, &d->sum);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      State s = *reinterpret_cast<const State*>(states[i]);
      close(s);
      if (s.count == 0 || s.lost) out.append_null();
      else out.append<int64_t>(s.sum);
    }
  }

 private:
  static void close(State& s) {
    if (s.partition < 0) return;
    s.lost |= s.open_lost || __builtin_add_overflow(s.sum, s.open, &s.sum);
    s.open = 0;
    s.open_lost = false;
    s.partition = -1;
  }
  TypeId in_;
};

// ---- min / max / first / last ---------------------------------------------------------------

template <typename T>
int cmp(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    bool xn = std::isnan(x), yn = std::isnan(y);
    if (xn || yn) return xn && yn ? 0 : (xn ? 1 : -1);
  }
  return x < y ? -1 : (x > y ? 1 : 0);
}

template <typename T>
struct FixedState {
  T value;
  bool has;
};

template <typename T, bool kMax>
class MinMaxFixed final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(FixedState<T>); }
  void init(uint8_t* s) const override { reinterpret_cast<FixedState<T>*>(s)->has = false; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const T* x = c.values<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      offer(reinterpret_cast<FixedState<T>*>(states[i]), x[i]);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* s = reinterpret_cast<const FixedState<T>*>(src);
    if (s->has) offer(reinterpret_cast<FixedState<T>*>(dst), s->value);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const FixedState<T>*>(states[i]);
      if (s->has) out.append<T>(s->value);
      else out.append_null();
    }
  }

 private:
  static void offer(FixedState<T>* s, T v) {
    if (!s->has || (kMax ? cmp(v, s->value) > 0 : cmp(v, s->value) < 0)) {
      s->value = v;
      s->has = true;
    }
  }
};

class MinMaxBool final : public AggregateFunction {
 public:
  explicit MinMaxBool(bool max) : max_(max) {}
  size_t state_size() const override { return 2; }
  void init(uint8_t* s) const override { s[0] = 0, s[1] = 0; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    for (int64_t i = 0; i < n; ++i)
      if (states[i] && c.is_valid(i)) offer(states[i], c.bool_at(i));
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    if (src[1]) offer(dst, src[0]);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      if (states[i][1]) out.append_bool(states[i][0]);
      else out.append_null();
    }
  }

 private:
  void offer(uint8_t* s, bool v) const {
    if (!s[1] || (max_ ? v > s[0] : v < s[0])) s[0] = v;
    s[1] = 1;
  }
  bool max_;
};

/// Values of variable size kept as owned copies: strings and binary as bytes, structs and
/// arrays as `Value`s in Spark's ordering (column/compare.h); a state holds one of the two, or
/// neither before its first non-null value.
struct VarState {
  HeapState<std::string> bytes;  // string / binary
  HeapState<Value> value;        // nested types
};

class MinMaxVar final : public AggregateFunction {
 public:
  MinMaxVar(TypePtr type, bool max) : type_(std::move(type)), nested_(type_->is_nested()), max_(max) {}
  size_t state_size() const override { return sizeof(VarState); }
  void init(uint8_t* s) const override { *reinterpret_cast<VarState*>(s) = {}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    if (!nested_) {
      update_bytes(states, c, n);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      offer(reinterpret_cast<VarState*>(states[i]), c.value_at(i));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* s = reinterpret_cast<const VarState*>(src);
    if (s->bytes) offer(reinterpret_cast<VarState*>(dst), *s->bytes);
    if (s->value) offer(reinterpret_cast<VarState*>(dst), *s->value);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* s = reinterpret_cast<const VarState*>(states[i]);
      if (s->bytes) out.append_bytes(*s->bytes);
      else if (s->value) out.append_value(*s->value);
      else out.append_null();
    }
  }
  void destroy(uint8_t* state) const override {
    auto* s = reinterpret_cast<VarState*>(state);
    s->bytes.destroy();
    s->value.destroy();
  }
  bool needs_destroy() const override { return true; }

 private:
  /// Strings and binary values. Consecutive rows of one state (a whole batch of a global
  /// aggregate, runs of sorted or clustered groups) are reduced to their best value before it
  /// meets the state. Over a run at least as long as the column's dictionary (a column decoded
  /// from dictionary-encoded data), only the first row of each code is compared: rows of equal
  /// codes hold equal values, so the rest cannot change the answer.
  void update_bytes(uint8_t** states, const Column& c, int64_t n) const {
    const DictionaryCodes* dict = c.dictionary_codes();
    const int32_t* codes = dict ? dict->codes->as<int32_t>() : nullptr;
    const int64_t cardinality = dict ? dict->cardinality : 0;
    const uint8_t* valid = c.validity_bits();
    std::vector<uint8_t> seen;
    int64_t i = 0;
    while (i < n) {
      uint8_t* state = states[i];
      int64_t end = i + 1;
      while (end < n && states[end] == state) ++end;
      if (state == nullptr) {
        i = end;
        continue;
      }
      std::string_view best;
      bool have = false;
      auto consider = [&](int64_t r) {
        const std::string_view v = c.string_at(r);
        if (!have || (max_ ? best.compare(v) < 0 : best.compare(v) > 0)) {
          best = v;
          have = true;
        }
      };
      if (codes != nullptr && end - i >= std::max<int64_t>(cardinality, kMinDictionaryRun)) {
        seen.assign(static_cast<size_t>(cardinality), 0);
        for (int64_t r = i; r < end; ++r) {
          if (valid && !get_bit(valid, r)) continue;
          uint8_t& s = seen[static_cast<size_t>(codes[r])];
          if (s) continue;
          s = 1;
          consider(r);
        }
      } else {
        for (int64_t r = i; r < end; ++r)
          if (!valid || get_bit(valid, r)) consider(r);
      }
      if (have) offer(reinterpret_cast<VarState*>(state), best);
      i = end;
    }
  }
  // Shorter runs compare every row: marking codes would cost more than it saves.
  static constexpr int64_t kMinDictionaryRun = 64;

  void offer(VarState* s, std::string_view v) const {
    if (!s->bytes || replaces(std::string_view(*s->bytes).compare(v))) s->bytes.assign(v);
  }
  void offer(VarState* s, const Value& v) const {
    if (!s->value || replaces(compare_values(*s->value, v, *type_))) s->value.assign(v);
  }
  /// Whether a candidate replaces the state's value, given how the value compares with it.
  bool replaces(int held_vs_candidate) const {
    return max_ ? held_vs_candidate < 0 : held_vs_candidate > 0;
  }
  TypePtr type_;
  bool nested_;
  bool max_;
};

TypePtr sum_result(const TypePtr& t) {
  if (t->is_integral()) return DataType::long_();
  if (t->is_floating()) return DataType::double_();
  if (t->id() == TypeId::kDecimal) return DataType::decimal(std::min(38, t->precision() + 10), t->scale());
  if (t->id() == TypeId::kNull || t->id() == TypeId::kString) return DataType::double_();
  if (t->id() == TypeId::kDayTimeInterval || t->id() == TypeId::kYearMonthInterval) return t;
  return nullptr;
}

void require_numeric(const std::string& fn, const TypePtr& t) {
  if (!t->is_numeric() && t->id() != TypeId::kNull && t->id() != TypeId::kString)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"NUMERIC\" or \"ANSI INTERVAL\" type, however \"" +
                            t->sql() + "\" has the type \"" + t->sql() + "\".",
                        fn + "(" + t->sql() + ")");
}

/// sum / avg, or try_sum / try_avg when `try_mode` (null instead of overflow errors).
std::unique_ptr<AggregateFunction> make_sum_avg(const Signature& sig, const EvalContext& ctx, bool avg,
                                                bool try_mode) {
  SumOverflow of = try_mode ? SumOverflow::kNull : ctx.ansi ? SumOverflow::kError : SumOverflow::kWrap;
  auto make = [&]<typename In, typename SumAcc>() -> std::unique_ptr<AggregateFunction> {
    if constexpr (std::is_integral_v<In>)
      if (try_mode && !avg) return std::make_unique<TrySumIntegral>(sig.arg_types[0]->id());
    if (avg) return std::make_unique<SumAvg<In, double, true>>(of);
    return std::make_unique<SumAvg<In, SumAcc, false>>(of);
  };
  switch (sig.arg_types[0]->id()) {
    case TypeId::kByte: return make.template operator()<int8_t, int64_t>();
    case TypeId::kShort: return make.template operator()<int16_t, int64_t>();
    case TypeId::kInt: return make.template operator()<int32_t, int64_t>();
    case TypeId::kLong: return make.template operator()<int64_t, int64_t>();
    case TypeId::kFloat: return make.template operator()<float, double>();
    case TypeId::kDouble: return make.template operator()<double, double>();
    case TypeId::kDecimal: {
      EvalContext lenient = ctx;
      lenient.ansi = ctx.ansi && !try_mode;
      return make_decimal_sum_avg(sig, lenient, avg);
    }
    default:
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       std::string(avg ? "avg" : "sum") + " of " + sig.arg_types[0]->sql() +
                           " is not supported yet.");
  }
}


}  // namespace

std::unique_ptr<AggregateFunction> make_min_max(const Signature& sig, bool max) {
  TypeId id = sig.arg_types[0]->id();
  if (id == TypeId::kBoolean) return std::make_unique<MinMaxBool>(max);
  if (id == TypeId::kString || id == TypeId::kBinary || id == TypeId::kStruct || id == TypeId::kArray)
    return std::make_unique<MinMaxVar>(sig.arg_types[0], max);
  if (id == TypeId::kNull) return std::make_unique<MinMaxBool>(max);
  if (!sig.arg_types[0]->is_fixed_width())
    throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                     std::string(max ? "max" : "min") + " of " + sig.arg_types[0]->sql() +
                         " is not supported yet.");
  return dispatch_fixed(id, [&]<typename T>() -> std::unique_ptr<AggregateFunction> {
    if (max) return std::make_unique<MinMaxFixed<T, true>>();
    return std::make_unique<MinMaxFixed<T, false>>();
  });
}

void register_aggregates(Registry& r) {
  {
    FunctionDef d;
    d.name = "count";
    d.kind = FunctionKind::kAggregate;
    d.min_args = 1;
    d.max_args = -1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      Signature s;
      s.arg_types = args;
      s.result_type = DataType::long_();
      s.null_if_any_arg_null = false;
      s.never_null = true;
      return s;
    };
    d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<Count>(); };
    d.gpu_supported = true;
    d.usage = "count(*) - Returns the total number of retrieved rows, including rows containing null.";
    r.add(std::move(d));
  }
  for (bool try_mode : {false, true}) {
    for (bool avg : {false, true}) {
      FunctionDef d;
      std::string base = avg ? "avg" : "sum";
      d.name = try_mode ? "try_" + base : base;
      if (avg && !try_mode) d.aliases = {"mean"};
      d.kind = FunctionKind::kAggregate;
      d.min_args = d.max_args = 1;
      std::string name = d.name;
      d.type_rule = [avg, name](const std::vector<TypePtr>& args, const Config&) {
        require_numeric(name, args[0]);
        Signature s;
        TypePtr in = args[0]->id() == TypeId::kNull || args[0]->id() == TypeId::kString ? DataType::double_() : args[0];
        s.arg_types = {in};
        s.result_type = avg ? (in->id() == TypeId::kDecimal
                                   ? DataType::decimal(std::min(38, in->precision() + 4), std::min(38, in->scale() + 4))
                                   : DataType::double_())
                            : sum_result(in);
        s.null_if_any_arg_null = false;
        return s;
      };
      d.aggregate = [avg, try_mode](const Signature& sig, const EvalContext& ctx) {
        return make_sum_avg(sig, ctx, avg, try_mode);
      };
      d.gpu_supported = !try_mode;
      d.usage = try_mode ? (avg ? "try_avg(expr) - Returns the mean calculated from values of a group and the "
                                  "result is null on overflow."
                                : "try_sum(expr) - Returns the sum calculated from values of a group and the "
                                  "result is null on overflow.")
                         : (avg ? "avg(expr) - Returns the mean calculated from values of a group."
                                : "sum(expr) - Returns the sum calculated from values of a group.");
      r.add(std::move(d));
    }
  }
  for (bool max : {false, true}) {
    FunctionDef d;
    d.name = max ? "max" : "min";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    std::string name = d.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      if (!orderable(*args[0]))
        throw_type_mismatch("INVALID_ORDERING_TYPE",
                            "The `" + name + "` does not support ordering on type \"" + args[0]->sql() + "\".",
                            name + "(" + args[0]->sql() + ")");
      Signature s;
      s.arg_types = args;
      s.result_type = args[0];
      s.null_if_any_arg_null = false;
      return s;
    };
    d.aggregate = [max](const Signature& sig, const EvalContext&) { return make_min_max(sig, max); };
    d.gpu_supported = true;
    d.usage = max ? "max(expr) - Returns the maximum value of expr." : "min(expr) - Returns the minimum value of expr.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
