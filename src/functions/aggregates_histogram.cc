// histogram_numeric(col, nb): an approximate histogram of at most nb bins, each the weighted
// mean x of the values it absorbed and their count y, built as Spark's NumericHistogram builds
// it (Ben-Haim and Tom-Tov's streaming histogram): a value equal to a bin's x joins it, any
// other becomes a bin of its own, and while there are too many bins the two closest merge.
// Ties between equally close pairs are broken with java.util.Random(31183) as Spark does, so a
// sequence of rows gives Spark's result bit for bit; partial histograms merge by pooling their
// bins (sorted by x) and trimming. The result is array<struct<x, y: double>> with x in the
// input's type (strings are read as doubles); null without input.

#include <algorithm>
#include <cmath>

#include "functions/aggregate_state.h"
#include "functions/java_random.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

struct Bin {
  double x, y;
};

/// One group's histogram; each state owns its tie-breaking random stream, as each of Spark's
/// histogram buffers does.
struct Histogram {
  int32_t nbins = 0;
  std::vector<Bin> bins;
  JavaRandom random{31183};

  void add(double v) {
    size_t bin = 0;
    for (size_t l = 0, r = bins.size(); l < r;) {
      bin = (l + r) / 2;
      if (bins[bin].x > v) {
        r = bin;
      } else if (bins[bin].x < v) {
        l = ++bin;
      } else {
        break;
      }
    }
    if (bin < bins.size() && bins[bin].x == v) {
      bins[bin].y += 1;
      return;
    }
    bins.insert(bins.begin() + static_cast<std::ptrdiff_t>(bin), Bin{v, 1});
    if (static_cast<int64_t>(bins.size()) > nbins) trim();
  }

  void merge(const Histogram& other) {
    if (other.bins.empty()) return;
    if (nbins == 0 || bins.empty()) {
      nbins = other.nbins;
      bins = other.bins;
      return;
    }
    bins.insert(bins.end(), other.bins.begin(), other.bins.end());
    std::stable_sort(bins.begin(), bins.end(), [](const Bin& a, const Bin& b) { return a.x < b.x; });
    trim();
  }

  /// Merges the closest neighbours until at most nbins remain; among equally close pairs the
  /// k-th one seen replaces the choice with probability 1/k.
  void trim() {
    while (static_cast<int64_t>(bins.size()) > nbins) {
      double smallest = bins[1].x - bins[0].x;
      size_t loc = 0;
      int count = 1;
      for (size_t i = 1; i + 1 < bins.size(); ++i) {
        double diff = bins[i + 1].x - bins[i].x;
        if (diff < smallest) {
          smallest = diff;
          loc = i;
          count = 1;
        } else if (diff == smallest && random.next_double() <= 1.0 / ++count) {
          loc = i;
        }
      }
      // The weighted mean in Spark's order of operations, so that it rounds the same way.
      Bin& a = bins[loc];
      const Bin& b = bins[loc + 1];
      double d = a.y + b.y;
      a.x = a.x * (a.y / d);
      a.x = a.x + (b.x / d) * b.y;
      a.y = d;
      bins.erase(bins.begin() + static_cast<std::ptrdiff_t>(loc) + 1);
    }
  }
};

/// A value of the input type from a bin's x, as Java's narrowing casts give it.
template <typename T>
T narrow(double x) {
  if (std::isnan(x)) return 0;
  if constexpr (std::is_same_v<T, int64_t>) {
    if (x >= 9.2233720368547758e18) return INT64_MAX;
    if (x <= -9.2233720368547758e18) return INT64_MIN;
    return static_cast<int64_t>(x);
  } else {
    // Java narrows to int first, then to the smaller type by truncating bits.
    int32_t i = x >= 2147483647.0 ? INT32_MAX : x <= -2147483648.0 ? INT32_MIN : static_cast<int32_t>(x);
    return static_cast<T>(i);
  }
}

/// State: the group's `Histogram`, made on its first value or merge.
class HistogramNumeric final : public HeapStateAggregate<Histogram> {
 public:
  explicit HistogramNumeric(TypePtr type) : type_(std::move(type)) {}
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull || args[1]->length() == 0) return;
    int32_t nb = args[1]->values<int32_t>()[0];
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || c.is_null(i)) continue;
      histogram(states[i], nb).add(value_at(c, i));
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    const Histogram* s = state(src).get();
    if (!s || s->bins.empty()) return;
    histogram(dst, s->nbins).merge(*s);
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      const Histogram* h = state(states[i]).get();
      if (!h || h->bins.empty()) {
        out.append_null();
        continue;
      }
      ColumnBuilder& elements = out.child(0);
      for (const Bin& b : h->bins) {
        append_x(elements.child(0), b.x);
        elements.child(1).append<double>(b.y);
        elements.close_struct(true);
      }
      out.close_list();
    }
  }

 private:
  /// The histogram of slot `s`, made with `nb` bins when it has none yet.
  static Histogram& histogram(uint8_t* s, int32_t nb) {
    HeapState<Histogram>& h = state(s);
    if (!h) h.create().nbins = nb;
    return *h;
  }
  double value_at(const Column& c, int64_t i) const {
    if (type_->id() == TypeId::kDecimal)
      return static_cast<double>(static_cast<long double>(c.values<int128_t>()[i]) / std::pow(10.0L, type_->scale()));
    return dispatch_fixed(type_->id(), [&]<typename T>() -> double {
      if constexpr (std::is_same_v<T, int128_t>) return 0;
      else return static_cast<double>(c.values<T>()[i]);
    });
  }
  void append_x(ColumnBuilder& b, double x) const {
    if (type_->id() == TypeId::kDecimal) {
      // Rounded half up to the type's scale; a value that no longer fits is null.
      long double scaled = std::round(static_cast<long double>(x) * std::pow(10.0L, type_->scale()));
      long double limit = std::pow(10.0L, type_->precision());
      if (std::fabs(scaled) >= limit) b.append_null();
      else b.append<int128_t>(static_cast<int128_t>(scaled));
      return;
    }
    dispatch_fixed(type_->id(), [&]<typename T>() {
      if constexpr (std::is_floating_point_v<T>) b.append<T>(static_cast<T>(x));
      else if constexpr (std::is_same_v<T, int128_t>) b.append_null();
      else b.append<T>(narrow<T>(x));
    });
  }
  TypePtr type_;
};

Signature histogram_signature(const std::vector<ArgInfo>& a) {
  std::string shown = "histogram_numeric(" + a[0].type->sql() + ", " + a[1].type->sql() + ")";
  const TypePtr& in = a[0].type;
  bool ok = in->is_numeric() || in->is_datetime() || in->id() == TypeId::kYearMonthInterval ||
            in->id() == TypeId::kDayTimeInterval || in->id() == TypeId::kString || in->id() == TypeId::kNull;
  if (!ok)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the (\"NUMERIC\" or \"TIMESTAMP\" or \"DATE\" or \"TIMESTAMP_NTZ\" "
                        "or \"INTERVAL YEAR TO MONTH\" or \"INTERVAL DAY TO SECOND\") type, however \"" +
                            in->sql() + "\" has the type \"" + in->sql() + "\".",
                        shown);
  const TypePtr& nb = a[1].type;
  if (!nb->is_integral() || nb->id() == TypeId::kLong)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The second parameter requires the \"INT\" type, however \"" + nb->sql() + "\" has the type \"" +
                            nb->sql() + "\".",
                        shown);
  if (!a[1].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input nb should be a foldable \"INT\" expression; however, got \"" + nb->sql() + "\".",
                        shown);
  int64_t bins = a[1].literal->is_null() ? 0 : a[1].literal->as_int();
  if (bins < 2)
    throw_type_mismatch("VALUE_OUT_OF_RANGE",
                        "The nb must be between [2, 2147483647] (current value = " + std::to_string(bins) + ").", shown);
  TypePtr x = in->id() == TypeId::kString || in->id() == TypeId::kNull ? DataType::double_() : in;
  Signature s;
  s.arg_types = {x, DataType::int_()};
  s.result_type = DataType::array(DataType::struct_({{"x", x, true, "{}"}, {"y", DataType::double_(), true, "{}"}}), true);
  s.null_if_any_arg_null = false;
  s.may_introduce_null = true;
  return s;
}

}  // namespace

void register_histogram_aggregates(Registry& r) {
  FunctionDef d;
  d.name = "histogram_numeric";
  d.kind = FunctionKind::kAggregate;
  d.min_args = d.max_args = 2;
  d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) { return histogram_signature(a); };
  d.aggregate = [](const Signature& sig, const EvalContext&) {
    return std::make_unique<HistogramNumeric>(sig.arg_types[0]);
  };
  d.usage = "histogram_numeric(expr, nb) - Computes a histogram on numeric 'expr' using nb bins.";
  r.add(std::move(d));
}

}  // namespace ember::functions
