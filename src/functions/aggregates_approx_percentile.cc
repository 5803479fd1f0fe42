// percentile_approx / approx_percentile(col, percentage [, accuracy]): Greenwald–Khanna quantile
// summaries with the relative error 1 / accuracy (default accuracy 10000), built, compressed,
// merged and queried by the same rules as Spark's QuantileSummaries (a head buffer of 50000
// values merged into the sorted samples, compression once 10000 samples accumulate, merge
// threshold 2 * error * count). Summaries of up to a few thousand values are exact; larger ones
// agree with Spark's within the rank error, and exactly when partial summaries are cut and
// merged alike. The result has the input's type (an array of it for an array of percentages).

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "functions/aggregate_state.h"
#include "functions/cast.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "io/text_parse.h"

namespace ember::functions {
namespace {

constexpr size_t kHeadSize = 50000;
constexpr size_t kCompressThreshold = 10000;
constexpr int64_t kDefaultAccuracy = 10000;

/// One sample: a value, the rank gap to the previous sample (g) and the rank uncertainty (delta).
struct Sample {
  double value;
  int64_t g;
  int64_t delta;
};

class QuantileSummary {
 public:
  explicit QuantileSummary(double relative_error) : error_(relative_error) {}

  void insert(double x) {
    head_.push_back(x);
    if (head_.size() >= kHeadSize) {
      insert_head();
      if (samples_.size() >= kCompressThreshold) compress();
    }
  }

  /// Moves the head buffer into the samples and compresses them.
  void compress() {
    insert_head();
    samples_ = compressed(samples_, 2 * error_ * static_cast<double>(count_));
  }

  /// Merges a compressed summary into this compressed one.
  void merge(const QuantileSummary& other) {
    if (other.count_ == 0) return;
    if (count_ == 0) {
      *this = other;
      return;
    }
    std::vector<Sample> merged;
    merged.reserve(samples_.size() + other.samples_.size());
    size_t i = 0, j = 0;
    const auto& a = samples_;
    const auto& b = other.samples_;
    // A sample from one side may have come after any value of the other side's preceding gap:
    // its uncertainty grows by that gap.
    while (i < a.size() && j < b.size()) {
      if (a[i].value < b[j].value) {
        Sample s = a[i++];
        if (j > 0) s.delta += b[j].g + b[j].delta - 1;
        merged.push_back(s);
      } else {
        Sample s = b[j++];
        if (i > 0) s.delta += a[i].g + a[i].delta - 1;
        merged.push_back(s);
      }
    }
    for (; i < a.size(); ++i) merged.push_back(a[i]);
    for (; j < b.size(); ++j) merged.push_back(b[j]);
    count_ += other.count_;
    error_ = std::max(error_, other.error_);
    samples_ = compressed(merged, 2 * error_ * static_cast<double>(count_));
  }

  bool empty() const { return count_ == 0 && head_.empty(); }

  /// The approximate value at `percentile` of a compressed, non-empty summary.
  double query(double percentile) const {
    if (percentile <= error_) return samples_.front().value;
    if (percentile >= 1 - error_) return samples_.back().value;
    int64_t target_error = 0;
    for (auto& s : samples_) target_error = std::max(target_error, s.g + s.delta);
    target_error /= 2;
    auto rank = static_cast<int64_t>(std::ceil(percentile * static_cast<double>(count_)));
    int64_t min_rank = 0;
    for (size_t i = 0; i + 1 < samples_.size(); ++i) {
      min_rank += samples_[i].g;
      int64_t max_rank = min_rank + samples_[i].delta;
      if (max_rank - target_error <= rank && rank <= min_rank + target_error) return samples_[i].value;
    }
    return samples_.back().value;
  }

 private:
  void insert_head() {
    if (head_.empty()) return;
    // Java's total order of doubles, as Spark sorts its head buffer: -0.0 before 0.0, NaN
    // after +Infinity.
    std::sort(head_.begin(), head_.end(), [](double a, double b) {
      if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
      if (a == b) return std::signbit(a) && !std::signbit(b);
      return a < b;
    });
    std::vector<Sample> out;
    out.reserve(samples_.size() + head_.size());
    size_t s = 0;
    int64_t count = count_;
    for (size_t k = 0; k < head_.size(); ++k) {
      double x = head_[k];
      while (s < samples_.size() && samples_[s].value <= x) out.push_back(samples_[s++]);
      ++count;
      int64_t delta = (out.empty() || (s == samples_.size() && k == head_.size() - 1))
                          ? 0
                          : static_cast<int64_t>(std::floor(2 * error_ * static_cast<double>(count)));
      out.push_back({x, 1, delta});
    }
    for (; s < samples_.size(); ++s) out.push_back(samples_[s]);
    samples_ = std::move(out);
    count_ = count;
    head_.clear();
  }

  /// Merges neighbouring samples, from the largest down, while their combined gap and
  /// uncertainty stay under `threshold`; the smallest and largest samples are kept.
  static std::vector<Sample> compressed(const std::vector<Sample>& in, double threshold) {
    if (in.empty()) return {};
    std::vector<Sample> rev;
    Sample head = in.back();
    for (size_t i = in.size() - 2; in.size() >= 3 && i >= 1; --i) {
      const Sample& s = in[i];
      if (static_cast<double>(s.g + head.g + head.delta) < threshold) {
        head.g += s.g;
      } else {
        rev.push_back(head);
        head = s;
      }
    }
    rev.push_back(head);
    if (in.size() > 1 && in.front().value <= head.value) rev.push_back(in.front());
    std::reverse(rev.begin(), rev.end());
    return rev;
  }

  double error_;
  std::vector<double> head_;
  std::vector<Sample> samples_;
  int64_t count_ = 0;
};

/// One group's summary and the call's constant percentages.
struct ApproxData {
  QuantileSummary summary;
  std::vector<double> percentages;
};

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
    dispatch_fixed(c.type()->id(), [&]<typename T>() {
      const T* x = c.values<T>();
      for (int64_t i = 0; i < n; ++i) {
        if (!states[i] || c.is_null(i)) continue;
        HeapState<ApproxData>& d = state(states[i]);
        if (!d) d.create(ApproxData{QuantileSummary(1.0 / static_cast<double>(accuracy)), pcts});
        d->summary.insert(to_double(x[i]));
      }
    });
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    ApproxData* s = state(src).get();
    if (!s) return;
    HeapState<ApproxData>& d = state(dst);
    s->summary.compress();
    if (!d) {
      d.assign(*s);
      return;
    }
    d->summary.compress();
    d->summary.merge(s->summary);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      ApproxData* d = state(states[i]).get();
      if (!d || d->summary.empty()) {
        out.append_null();
        continue;
      }
      d->summary.compress();
      if (!array_) {
        append(out, d->summary.query(d->percentages[0]));
        continue;
      }
      for (double p : d->percentages) append(out.child(0), d->summary.query(p));
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
