// percentile_approx / approx_percentile(col, percentage [, accuracy]): Spark's Greenwald–Khanna
// quantile summaries (functions/quantile_summary.h) with the relative error 1 / accuracy
// (default accuracy 10000). As in Spark, a summary is built per partition of the input, in the
// partition's row order, and the final aggregation merges the partitions' summaries in partition
// order; the engine feeds each partition whole to one thread (FunctionDef::follows_partitions),
// so the answer is Spark's wherever Ember knows Spark's partitions. The result has the input's
// type (an array of it for an array of percentages).

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "functions/aggregate_state.h"
#include "functions/cast.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "functions/quantile_summary.h"
#include "functions/rand.h"
#include "io/text_parse.h"

namespace ember::functions {
namespace {

constexpr int64_t kDefaultAccuracy = 10000;

/// What one of Spark's tasks sends the final aggregation for a group: the summary of the
/// group's values in one partition, built in the partition's row order.
struct PartitionSummary {
  int64_t partition;
  /// The batch (`PartitionContext::batch`) of the partition's first value this state saw.
  int64_t first_batch;
  QuantileSummary summary;
};

/// One group's summaries, one per Spark partition, and the call's constant percentages.
struct ApproxData {
  double relative_error;
  std::vector<double> percentages;
  std::vector<PartitionSummary> partitions;

  /// The summary of `where`'s partition; a new one for a partition not seen yet, which ends
  /// the previous partition's (compressed as Spark's task compresses it to send it).
  QuantileSummary& summary_of(const PartitionContext& where) {
    if (!partitions.empty() && partitions.back().partition == where.partition)
      return partitions.back().summary;
    for (PartitionSummary& p : partitions)
      if (p.partition == where.partition) return p.summary;
    if (!partitions.empty()) partitions.back().summary.compress();
    partitions.push_back({where.partition, where.batch, QuantileSummary(relative_error)});
    return partitions.back().summary;
  }
};

/// Adds `later`, values of one partition that came after those of `earlier`, to `earlier`. A
/// summary that holds only head values is a list of values, which `earlier` takes in order as
/// one summary would have (how a window frame's rows add up); otherwise the two are merged.
void append_summary(QuantileSummary& earlier, QuantileSummary& later) {
  if (later.count() == 0) {
    for (double x : later.head()) earlier.insert(x);
    return;
  }
  earlier.compress();
  later.compress();
  earlier.merge(later);
}

/// State: the group's `ApproxData`, made on its first non-null value.
class ApproxPercentile final : public HeapStateAggregate<ApproxData> {
 public:
  ApproxPercentile(TypePtr type, bool array, std::string name)
      : type_(std::move(type)), array_(array), name_(std::move(name)) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull || n == 0) return;
    std::vector<double> pcts = percentages(*args[1]);
    int64_t accuracy = args.size() > 2 ? args[2]->value_at(0).as_int() : kDefaultAccuracy;
    if (accuracy <= 0 || accuracy > INT32_MAX)
      throw_type_mismatch("VALUE_OUT_OF_RANGE",
                          "The accuracy must be between (0, 2147483647] (current value = " + std::to_string(accuracy) +
                              "L).",
                          name_);
    // The rows of one call are one batch's, all of one partition.
    const PartitionContext where = current_partition();
    dispatch_fixed(c.type()->id(), [&]<typename T>() {
      const T* x = c.values<T>();
      for (int64_t i = 0; i < n; ++i) {
        if (!states[i] || c.is_null(i)) continue;
        HeapState<ApproxData>& d = state(states[i]);
        if (!d) d.create(ApproxData{1.0 / static_cast<double>(accuracy), pcts, {}});
        d->summary_of(where).insert(to_double(x[i]));
      }
    });
  }
  /// Summaries of different partitions stay apart; those of one partition add up in the order
  /// of their first batches.
  void merge(uint8_t* dst, const uint8_t* src) const override {
    ApproxData* s = state(src).get();
    if (!s) return;
    HeapState<ApproxData>& d = state(dst);
    if (!d) {
      d.assign(*s);
      return;
    }
    for (PartitionSummary& from : s->partitions) {
      auto same =
          std::find_if(d->partitions.begin(), d->partitions.end(),
                       [&](const PartitionSummary& p) { return p.partition == from.partition; });
      if (same == d->partitions.end()) {
        d->partitions.push_back(from);
      } else if (from.first_batch < same->first_batch) {
        PartitionSummary earlier = from;
        append_summary(earlier.summary, same->summary);
        *same = std::move(earlier);
      } else {
        append_summary(same->summary, from.summary);
      }
    }
  }
  /// Spark's final aggregation: each partition's summary compressed (as its task sends it),
  /// merged into an empty summary in partition order (the order the final aggregation reads
  /// the shuffled partial results in).
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      ApproxData* d = state(states[i]).get();
      std::vector<PartitionSummary>* parts = d ? &d->partitions : nullptr;
      if (parts) {
        std::sort(parts->begin(), parts->end(),
                  [](const PartitionSummary& a, const PartitionSummary& b) {
                    return a.partition != b.partition ? a.partition < b.partition
                                                      : a.first_batch < b.first_batch;
                  });
        for (PartitionSummary& p : *parts) p.summary.compress();
      }
      // One partition's summary answers in place, as Spark's buffer compresses in place (a
      // window frame that grows row by row goes on from it).
      QuantileSummary merged(d ? d->relative_error : 0);
      const QuantileSummary* total = &merged;
      if (parts && parts->size() == 1) {
        total = &parts->front().summary;
      } else if (parts) {
        for (const PartitionSummary& p : *parts) merged.merge(p.summary);
      }
      if (total->count() == 0 || d->percentages.empty()) {
        out.append_null();
        continue;
      }
      std::vector<double> values = total->query(d->percentages);
      if (!array_) {
        append(out, values[0]);
        continue;
      }
      for (double v : values) append(out.child(0), v);
      out.close_list();
    }
  }

 private:
  /// A value as Spark's summary holds it: decimals of up to 18 digits as their unscaled long
  /// divided by the power of ten, wider ones rounded from their exact value.
  template <typename T>
  double to_double(T v) const {
    if constexpr (std::is_same_v<T, int128_t>) {
      if (type_->precision() > 18) return std::strtod(decimal_to_string(v, type_->scale()).c_str(), nullptr);
      return static_cast<double>(v) / std::pow(10.0, type_->scale());
    } else {
      return static_cast<double>(v);
    }
  }
  /// Appends a summary value in the input's type, as Spark converts it back: a decimal through
  /// the double's shortest text, rounded to the type's scale, and null when it does not fit
  /// (the double of 99999999999999999999.999999999999999999 is 1.0E20).
  void append(ColumnBuilder& b, double v) const {
    dispatch_fixed(type_->id(), [&]<typename T>() {
      if constexpr (std::is_same_v<T, int128_t>) {
        int128_t d = 0;
        if (io::parse_decimal(format_double(v), type_->precision(), type_->scale(), false, &d)) b.append<int128_t>(d);
        else b.append_null();
      } else {
        b.append<T>(static_cast<T>(v));
      }
    });
  }
  std::vector<double> percentages(const Column& c) const {
    Value v = c.value_at(0);
    std::vector<double> out;
    auto check = [&](const Value& p) {
      if (p.is_null()) throw_type_mismatch("UNEXPECTED_NULL", "The percentage must not be null.", name_);
      double d = p.as_double();
      if (!(d >= 0.0 && d <= 1.0))
        throw_type_mismatch("VALUE_OUT_OF_RANGE", "All percentage values must be between 0.0 and 1.0.", name_);
      out.push_back(d);
    };
    if (array_ && !v.is_null()) {
      for (auto& p : v.as_list()) check(p);
    } else {
      check(v);
    }
    return out;
  }
  TypePtr type_;
  bool array_;
  std::string name_;
};

bool summarizable(const DataType& t) {
  return t.is_numeric() || t.id() == TypeId::kDate || t.id() == TypeId::kTimestamp ||
         t.id() == TypeId::kTimestampNtz || t.id() == TypeId::kYearMonthInterval ||
         t.id() == TypeId::kDayTimeInterval;
}

}  // namespace

void register_approx_percentile(Registry& r) {
  FunctionDef d;
  d.name = "percentile_approx";
  d.aliases = {"approx_percentile"};
  d.kind = FunctionKind::kAggregate;
  d.follows_partitions = true;
  d.min_args = 2;
  d.max_args = 3;
  d.type_rule = [](const std::vector<TypePtr>& args, const Config&) {
    std::string sql = "percentile_approx(" + args[0]->sql() + ", " + args[1]->sql() + ")";
    if (!summarizable(*args[0]))
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The first parameter requires the (\"NUMERIC\" or \"DATE\" or \"TIMESTAMP\" or \"ANSI "
                          "INTERVAL\") type, however \"" + args[0]->sql() + "\" has the type \"" + args[0]->sql() + "\".",
                          sql);
    bool array = args[1]->id() == TypeId::kArray;
    TypePtr p = array ? args[1]->element_type() : args[1];
    if (!(p->is_numeric() || p->id() == TypeId::kNull))
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The second parameter requires the (\"DOUBLE\" or \"ARRAY<DOUBLE>\") type, however \"" +
                              args[1]->sql() + "\" has the type \"" + args[1]->sql() + "\".",
                          sql);
    if (args.size() > 2 && !args[2]->is_integral())
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          "The third parameter requires the \"INTEGRAL\" type, however \"" + args[2]->sql() +
                              "\" has the type \"" + args[2]->sql() + "\".",
                          sql);
    Signature s;
    s.arg_types = {args[0], array ? DataType::array(DataType::double_()) : DataType::double_()};
    if (args.size() > 2) s.arg_types.push_back(DataType::long_());
    s.result_type = array ? DataType::array(args[0], false) : args[0];
    s.null_if_any_arg_null = false;
    return s;
  };
  d.aggregate = [](const Signature& sig, const EvalContext&) {
    return std::make_unique<ApproxPercentile>(sig.arg_types[0], sig.arg_types[1]->id() == TypeId::kArray,
                                              "percentile_approx");
  };
  // Spark shows the default accuracy: percentile_approx(v, 0.5, 10000).
  d.render = [](const std::string& called, const std::vector<std::string>& args) {
    return called + "(" + args[0] + ", " + args[1] + ", " +
           (args.size() > 2 ? args[2] : std::to_string(kDefaultAccuracy)) + ")";
  };
  d.usage =
      "percentile_approx(col, percentage [, accuracy]) - Returns the approximate `percentile` of the numeric or "
      "ANSI interval column `col`.";
  r.add(std::move(d));
}

}  // namespace ember::functions
