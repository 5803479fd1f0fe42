// Exact percentiles: percentile(col, percentage [, frequency]), median(col), and the ordered-set
// forms percentile_cont / percentile_disc(percentage) WITHIN GROUP (ORDER BY col [DESC]), which
// the parser turns into percentile_cont(col, percentage, descending). Each group keeps its values
// (with a frequency, the weight of every distinct value); the value of a rank is selected
// (nth_element) without sorting them all. percentile and percentile_cont interpolate linearly
// between the two values around position (count - 1) * percentage of the sorted values, as
// Spark's Percentile does; percentile_disc takes the first value whose cumulative share reaches the percentage.
// `percentage` is a constant double in [0, 1] (a double result) or an array of them (an array
// of doubles); `frequency` a non-negative integral weight per row.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "common/number_format.h"
#include "functions/aggregate_state.h"
#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

/// Total order of doubles with NaN greatest, as Spark sorts them.
bool double_less(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  return a < b;
}

/// The bits of a double (NaN and -0.0 already made canonical) as an unsigned integer in the
/// doubles' order, NaN greatest; from_ordered_bits turns it back.
uint64_t ordered_bits(uint64_t bits) {
  constexpr uint64_t sign = uint64_t{1} << 63;
  return (bits & sign) ? ~bits : bits | sign;
}
uint64_t from_ordered_bits(uint64_t key) {
  constexpr uint64_t sign = uint64_t{1} << 63;
  return (key & sign) ? key & ~sign : ~key;
}

/// One group's weighted values (keyed by their bits, so NaN is one key) and the constant
/// percentages, read from the call's argument the first time the group sees a row.
struct PercentileData {
  std::unordered_map<uint64_t, int64_t> counts;  // weighted values (with a frequency argument)
  std::vector<uint64_t> unit;                    // values of weight one, appended as they come
  std::vector<double> percentages;
  bool descending = false;
};

/// Where a call's parameters are: `fixed` is median's percentage (no argument); `freq_arg` /
/// `desc_arg` the frequency and descending-order arguments (-1: none).
struct PercentileForm {
  std::optional<double> fixed;
  bool array = false;
  bool discrete = false;
  int freq_arg = -1;
  int desc_arg = -1;
  std::string sql;
};

/// State: the group's `PercentileData`, made on its first counted value or merge.
class Percentile final : public HeapStateAggregate<PercentileData> {
 public:
  explicit Percentile(PercentileForm form) : form_(std::move(form)) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull || n == 0) return;
    std::vector<double> pcts = form_.fixed ? std::vector<double>{*form_.fixed} : percentages(*args[1]);
    const Column* freq = form_.freq_arg >= 0 && args.size() > static_cast<size_t>(form_.freq_arg)
                             ? args[static_cast<size_t>(form_.freq_arg)].get()
                             : nullptr;
    bool descending = false;
    if (form_.desc_arg >= 0) {
      const Column& f = *args[static_cast<size_t>(form_.desc_arg)];
      descending = f.type()->id() == TypeId::kBoolean && f.is_valid(0) && f.bool_at(0);
    }
    const double* x = c.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      int64_t w = 1;
      if (freq) {
        if (freq->type()->id() == TypeId::kNull || freq->is_null(i)) continue;
        w = freq->values<int64_t>()[i];
        if (w < 0)
          throw SparkError(ErrorKind::kIllegalArgument, "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION",
                           "Found the negative value in \"boundreference()\": " + std::to_string(w) +
                               "L, but expected a positive integral value.",
                           {{"frequencyExpression", "\"boundreference()\""}, {"negativeValue", std::to_string(w) + "L"}},
                           "22003");
        if (w == 0) continue;
      }
      PercentileData& d = state(states[i]).get_or_create();
      if (d.percentages.empty()) d.percentages = pcts, d.descending = descending;
      double v = x[i] == 0 ? 0.0 : x[i];  // -0.0 and 0.0 are one value
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      if (std::isnan(v)) bits = 0x7ff8000000000000ULL;
      if (freq) d.counts[bits] += w;
      else d.unit.push_back(bits);
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const PercentileData* s = state(src).get();
    if (!s || (s->counts.empty() && s->unit.empty())) return;
    PercentileData& d = state(dst).get_or_create();
    if (d.percentages.empty()) d.percentages = s->percentages, d.descending = s->descending;
    for (auto& [k, c] : s->counts) d.counts[k] += c;
    d.unit.insert(d.unit.end(), s->unit.begin(), s->unit.end());
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    std::vector<std::pair<double, int64_t>> sorted;
    std::vector<uint64_t> keys;
    for (int64_t i = 0; i < n; ++i) {
      PercentileData* d = state(states[i]).get();
      if (!d || (d->counts.empty() && d->unit.empty())) {
        out.append_null();
        continue;
      }
      sorted.clear();
      bool desc = d->descending;
      auto before = [desc](double a, double b) { return desc ? double_less(b, a) : double_less(a, b); };
      auto as_double = [](uint64_t bits) {
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
      };
      if (d->counts.empty()) {
        // Unweighted: the values as integers in the requested order, and the value of a rank by
        // selection (nth_element) for a few percentages, or by one sort for many.
        // (A copy: windows finalize one state many times.)
        keys.resize(d->unit.size());
        for (size_t k = 0; k < keys.size(); ++k) keys[k] = desc ? ~ordered_bits(d->unit[k]) : ordered_bits(d->unit[k]);
        const bool select = d->percentages.size() <= 4;
        if (!select) std::sort(keys.begin(), keys.end());
        auto value_at = [&](int64_t rank) {
          auto nth = keys.begin() + (rank - 1);
          if (select) std::nth_element(keys.begin(), nth, keys.end());
          return as_double(from_ordered_bits(desc ? ~*nth : *nth));
        };
        const int64_t total = static_cast<int64_t>(keys.size());
        if (!form_.array) {
          out.append<double>(at(total, d->percentages[0], value_at));
          continue;
        }
        for (double p : d->percentages) out.child(0).append<double>(at(total, p, value_at));
        out.close_list();
        continue;
      }
      for (uint64_t bits : d->unit) d->counts[bits] += 1;
      for (auto& [bits, c] : d->counts) sorted.emplace_back(as_double(bits), c);
      std::sort(sorted.begin(), sorted.end(), [&](auto& a, auto& b) { return before(a.first, b.first); });
      // Accumulated counts: sorted[k].second becomes the number of values <= sorted[k].first.
      for (size_t k = 1; k < sorted.size(); ++k) sorted[k].second += sorted[k - 1].second;
      auto value_at = [&](int64_t rank) { return value_at_rank(sorted, rank); };
      const int64_t total = sorted.back().second;
      if (!form_.array) {
        out.append<double>(at(total, d->percentages[0], value_at));
        continue;
      }
      for (double p : d->percentages) out.child(0).append<double>(at(total, p, value_at));
      out.close_list();
    }
  }

 private:
  /// The value of rank `rank` (1-based) among the accumulated counts.
  static double value_at_rank(const std::vector<std::pair<double, int64_t>>& acc, int64_t rank) {
    auto it = std::lower_bound(acc.begin(), acc.end(), rank, [](auto& e, int64_t r) { return e.second < r; });
    return it->first;
  }
  /// The percentile `p` of `total` values, `value_at(rank)` giving the value of a 1-based rank.
  template <typename ValueAt>
  double at(int64_t total, double p, const ValueAt& value_at) const {
    if (form_.discrete)
      return value_at(std::max<int64_t>(1, static_cast<int64_t>(std::ceil(p * static_cast<double>(total)))));
    double position = static_cast<double>(total - 1) * p;
    double lower = std::floor(position), higher = std::ceil(position);
    double lo = value_at(static_cast<int64_t>(lower) + 1);
    if (lower == higher) return lo;
    double hi = value_at(static_cast<int64_t>(higher) + 1);
    if (hi == lo) return lo;
    return (higher - position) * lo + (position - lower) * hi;
  }
  /// The constant percentages of argument `c`, checked to lie in [0, 1].
  std::vector<double> percentages(const Column& c) const {
    Value v = c.value_at(0);
    std::vector<double> out;
    auto check = [&](const Value& p) {
      if (p.is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The percentage must not be null.", form_.sql);
      double d = p.as_double();
      if (!(d >= 0.0 && d <= 1.0))
        throw_type_mismatch("VALUE_OUT_OF_RANGE",
                            "The percentage must be between [0.0, 1.0] (current value = " + java_double_string(d) +
                                "D).",
                            form_.sql);
      out.push_back(d);
    };
    if (form_.array) {
      if (!v.is_null())
        for (auto& p : v.as_list()) check(p);
    } else {
      check(v);
    }
    return out;
  }
  PercentileForm form_;
};

bool numeric_or_null(const TypePtr& t) {
  return t->is_numeric() || t->id() == TypeId::kNull;
}

/// The value argument: numeric, or a string cast to double as Spark's implicit casts do.
bool value_input(const TypePtr& t) { return numeric_or_null(t) || t->id() == TypeId::kString; }

}  // namespace

void register_percentile_aggregates(Registry& r) {
  {
    FunctionDef d;
    d.name = "percentile";
    d.kind = FunctionKind::kAggregate;
    d.min_args = 2;
    d.max_args = 3;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      std::string sql = "percentile(" + args[0]->sql() + ", " + args[1]->sql() + ")";
      if (!value_input(args[0]))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The first parameter requires the \"NUMERIC\" type, however \"" + args[0]->sql() +
                                "\" has the type \"" + args[0]->sql() + "\".",
                            sql);
      bool array = args[1]->id() == TypeId::kArray;
      if (!(array ? numeric_or_null(args[1]->element_type()) : numeric_or_null(args[1])))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The second parameter requires the (\"DOUBLE\" or \"ARRAY<DOUBLE>\") type, however \"" +
                                args[1]->sql() + "\" has the type \"" + args[1]->sql() + "\".",
                            sql);
      if (args.size() > 2 && !(args[2]->is_integral() || args[2]->id() == TypeId::kNull))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The third parameter requires the \"INTEGRAL\" type, however \"" + args[2]->sql() +
                                "\" has the type \"" + args[2]->sql() + "\".",
                            sql);
      Signature s;
      s.arg_types = {DataType::double_(), array ? DataType::array(DataType::double_()) : DataType::double_()};
      if (args.size() > 2) s.arg_types.push_back(DataType::long_());
      s.result_type = array ? DataType::array(DataType::double_(), false) : DataType::double_();
      s.null_if_any_arg_null = false;
      return s;
    };
    d.aggregate = [](const Signature& sig, const EvalContext&) {
      PercentileForm form;
      form.array = sig.arg_types[1]->id() == TypeId::kArray;
      form.freq_arg = 2;
      form.sql = "percentile";
      return std::make_unique<Percentile>(form);
    };
    // Spark shows the default frequency: percentile(v, 0.5, 1).
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[0] + ", " + args[1] + ", " + (args.size() > 2 ? args[2] : "1") + ")";
    };
    d.usage =
        "percentile(col, percentage [, frequency]) - Returns the exact percentile value of numeric column `col` at "
        "the given percentage.";
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "median";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
      if (!value_input(args[0]))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The first parameter requires the \"NUMERIC\" type, however \"" + args[0]->sql() +
                                "\" has the type \"" + args[0]->sql() + "\".",
                            "median(" + args[0]->sql() + ")");
      Signature s;
      s.arg_types = {DataType::double_()};
      s.result_type = DataType::double_();
      s.null_if_any_arg_null = false;
      return s;
    };
    d.aggregate = [](const Signature&, const EvalContext&) {
      PercentileForm form;
      form.fixed = 0.5;
      form.sql = "median";
      return std::make_unique<Percentile>(form);
    };
    d.usage = "median(col) - Returns the median of numeric column `col`.";
    r.add(std::move(d));
  }
  for (bool discrete : {false, true}) {
    FunctionDef d;
    d.name = discrete ? "percentile_disc" : "percentile_cont";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 3;
    std::string name = d.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      std::string sql = name + "(" + args[1]->sql() + ")";
      if (!value_input(args[0]))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The first parameter requires the \"NUMERIC\" type, however \"" + args[0]->sql() +
                                "\" has the type \"" + args[0]->sql() + "\".",
                            sql);
      if (!numeric_or_null(args[1]))
        throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                            "The second parameter requires the \"DOUBLE\" type, however \"" + args[1]->sql() +
                                "\" has the type \"" + args[1]->sql() + "\".",
                            sql);
      Signature s;
      s.arg_types = {DataType::double_(), DataType::double_(), DataType::boolean()};
      s.result_type = DataType::double_();
      s.null_if_any_arg_null = false;
      return s;
    };
    d.aggregate = [discrete, name](const Signature&, const EvalContext&) {
      PercentileForm form;
      form.discrete = discrete;
      form.desc_arg = 2;
      form.sql = name;
      return std::make_unique<Percentile>(form);
    };
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + args[1] + ") WITHIN GROUP (ORDER BY " + args[0] + (args[2] == "true" ? " DESC" : "") + ")";
    };
    d.usage = discrete ? "percentile_disc(percentage) WITHIN GROUP (ORDER BY col) - Returns a percentile value "
                         "based on a discrete distribution of numeric column `col`."
                       : "percentile_cont(percentage) WITHIN GROUP (ORDER BY col) - Returns a percentile value "
                         "based on a continuous distribution of numeric column `col`.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
