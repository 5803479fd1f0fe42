// Statistical aggregates: stddev / std / stddev_samp / stddev_pop, variance / var_samp /
// var_pop, skewness and kurtosis, and product (the double product of a group's values), with Spark's semantics: the input is cast to double; no
// non-null input gives null;
// a single value gives 0.0 for the population forms and null for the sample forms (NaN when
// spark.sql.legacy.statisticalAggregate is true).

#include <cmath>

#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

/// Running central moments (count, mean, sum of squared deviations), updated as Spark's
/// CentralMomentAgg does so that results agree to the last bits on the same input order.
struct Moments {
  double n;
  double mean;
  double m2;
};

class CentralMoments final : public AggregateFunction {
 public:
  CentralMoments(bool sample, bool sqrt, bool legacy)
      : sample_(sample), sqrt_(sqrt), legacy_(legacy) {}
  size_t state_size() const override { return sizeof(Moments); }
  void init(uint8_t* s) const override { *reinterpret_cast<Moments*>(s) = {0.0, 0.0, 0.0}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const double* x = c.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      auto* m = reinterpret_cast<Moments*>(states[i]);
      double count = m->n + 1;
      double delta = x[i] - m->mean;
      double delta_n = delta / count;
      m->mean += delta_n;
      m->m2 += delta * (delta - delta_n);
      m->n = count;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* a = reinterpret_cast<Moments*>(dst);
    auto* b = reinterpret_cast<const Moments*>(src);
    // An empty side adds nothing; merging into one must copy, since the update formula's
    // delta² · n1 · n2 is infinity times zero near the double limit.
    if (b->n == 0) return;
    if (a->n == 0) {
      *a = *b;
      return;
    }
    double count = a->n + b->n;
    double delta = b->mean - a->mean;
    double delta_n = count == 0 ? 0.0 : delta / count;
    a->mean += delta_n * b->n;
    a->m2 += b->m2 + delta * delta_n * a->n * b->n;
    a->n = count;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* m = reinterpret_cast<const Moments*>(states[i]);
      if (m->n == 0) {
        out.append_null();
        continue;
      }
      double v;
      if (sample_) {
        if (m->n == 1) {
          if (!legacy_) {
            out.append_null();
            continue;
          }
          v = NAN;
        } else {
          v = m->m2 / (m->n - 1);
        }
      } else {
        v = m->m2 / m->n;
      }
      out.append<double>(sqrt_ ? std::sqrt(v) : v);
    }
  }

 private:
  bool sample_, sqrt_, legacy_;
};

/// Count, mean and second to fourth central moments, updated and merged with Spark's
/// formulas (CentralMomentAgg) for skewness and kurtosis. Carried in extended precision: the
/// fourth moment's cancellations otherwise leave last-digit noise (kurtosis of 1, 1, 2 as
/// -1.499999999999999) that Spark's per-partition evaluation happens not to show.
struct HigherMoments {
  long double n, mean, m2, m3, m4;
};

class ShapeMoments final : public AggregateFunction {
 public:
  ShapeMoments(bool kurtosis, bool legacy) : kurtosis_(kurtosis), legacy_(legacy) {}
  size_t state_size() const override { return sizeof(HigherMoments); }
  void init(uint8_t* s) const override { *reinterpret_cast<HigherMoments*>(s) = {0, 0, 0, 0, 0}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const double* x = c.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      auto* m = reinterpret_cast<HigherMoments*>(states[i]);
      long double count = m->n + 1;
      long double delta = x[i] - m->mean;
      long double delta_n = delta / count;
      long double delta2 = delta * delta, delta_n2 = delta_n * delta_n;
      m->mean += delta_n;
      m->m2 += delta * (delta - delta_n);
      m->m3 += -3.0 * delta_n * m->m2 + delta * (delta2 - delta_n2);
      m->m4 += -4.0 * delta_n * m->m3 - 6.0 * delta_n2 * m->m2 + delta * (delta * delta2 - delta_n * delta_n2);
      m->n = count;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* a = reinterpret_cast<HigherMoments*>(dst);
    auto* b = reinterpret_cast<const HigherMoments*>(src);
    if (b->n == 0) return;
    if (a->n == 0) {  // as in Moments::merge
      *a = *b;
      return;
    }
    long double n1 = a->n, n2 = b->n, count = n1 + n2;
    long double delta = b->mean - a->mean;
    long double dn = count == 0 ? 0.0L : delta / count;
    long double m2 = a->m2 + b->m2 + delta * dn * n1 * n2;
    long double m3 = a->m3 + b->m3 + dn * dn * delta * n1 * n2 * (n1 - n2) + 3.0 * dn * (n1 * b->m2 - n2 * a->m2);
    long double m4 = a->m4 + b->m4 + dn * dn * dn * delta * n1 * n2 * (n1 * n1 - n1 * n2 + n2 * n2) +
                6.0 * dn * dn * (n1 * n1 * b->m2 + n2 * n2 * a->m2) + 4.0 * dn * (n1 * b->m3 - n2 * a->m3);
    a->mean += dn * n2;
    a->m2 = m2;
    a->m3 = m3;
    a->m4 = m4;
    a->n = count;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* m = reinterpret_cast<const HigherMoments*>(states[i]);
      if (m->n == 0 || (m->m2 == 0 && !legacy_)) {
        out.append_null();
      } else if (m->m2 == 0) {
        out.append<double>(NAN);
      } else if (kurtosis_) {
        out.append<double>(static_cast<double>(m->n * m->m4 / (m->m2 * m->m2) - 3.0L));
      } else {
        out.append<double>(static_cast<double>(std::sqrt(m->n) * m->m3 / std::sqrt(m->m2 * m->m2 * m->m2)));
      }
    }
  }

 private:
  bool kurtosis_, legacy_;
};

/// product(x): the product of the group's non-null values as a double; null without any.
struct ProductState {
  double product;
  bool any;
};

class Product final : public AggregateFunction {
 public:
  size_t state_size() const override { return sizeof(ProductState); }
  void init(uint8_t* s) const override { *reinterpret_cast<ProductState*>(s) = {1.0, false}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& c = *args[0];
    if (c.type()->id() == TypeId::kNull) return;
    const double* x = c.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || !c.is_valid(i)) continue;
      auto* p = reinterpret_cast<ProductState*>(states[i]);
      p->product *= x[i];
      p->any = true;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* a = reinterpret_cast<ProductState*>(dst);
    auto* b = reinterpret_cast<const ProductState*>(src);
    if (!b->any) return;
    a->product *= b->product;
    a->any = true;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      auto* p = reinterpret_cast<const ProductState*>(states[i]);
      if (p->any) out.append<double>(p->product);
      else out.append_null();
    }
  }
};

Signature moments_rule(const std::vector<TypePtr>& args, const std::string& name) {
  const TypePtr& t = args[0];
  if (!t->is_numeric() && t->id() != TypeId::kNull && t->id() != TypeId::kString)
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The first parameter requires the \"DOUBLE\" type, however \"" + t->sql() +
                            "\" has the type \"" + t->sql() + "\".",
                        name + "(" + t->sql() + ")");
  Signature s;
  s.arg_types = {DataType::double_()};
  s.result_type = DataType::double_();
  s.null_if_any_arg_null = false;
  s.may_introduce_null = true;
  return s;
}

}  // namespace

void register_statistical_aggregates(Registry& r) {
  {
    FunctionDef d;
    d.name = "product";
    d.unlisted = true;  // Spark has it in the DataFrame API only
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config&) { return moments_rule(args, "product"); };
    d.aggregate = [](const Signature&, const EvalContext&) { return std::make_unique<Product>(); };
    d.usage = "product(expr) - Returns the product calculated from values of a group.";
    r.add(std::move(d));
  }
  struct Spec {
    const char* name;
    bool sample;
    bool sqrt;
    const char* usage;
  };
  for (Spec s :
       {Spec{"stddev", true, true,
             "stddev(expr) - Returns the sample standard deviation calculated from values of a "
             "group."},
        Spec{
            "std", true, true,
            "std(expr) - Returns the sample standard deviation calculated from values of a group."},
        Spec{"stddev_samp", true, true,
             "stddev_samp(expr) - Returns the sample standard deviation calculated from values of "
             "a group."},
        Spec{"stddev_pop", false, true,
             "stddev_pop(expr) - Returns the population standard deviation calculated from values "
             "of a group."},
        Spec{"variance", true, false,
             "variance(expr) - Returns the sample variance calculated from values of a group."},
        Spec{"var_samp", true, false,
             "var_samp(expr) - Returns the sample variance calculated from values of a group."},
        Spec{"var_pop", false, false,
             "var_pop(expr) - Returns the population variance calculated from values of a "
             "group."}}) {
    FunctionDef d;
    d.name = s.name;
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    std::string name = s.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      return moments_rule(args, name);
    };
    bool sample = s.sample, sqrt = s.sqrt;
    d.aggregate = [sample, sqrt](const Signature&, const EvalContext& ctx) {
      bool legacy =
          ctx.config && ctx.config->get_bool("spark.sql.legacy.statisticalAggregate", false);
      return std::make_unique<CentralMoments>(sample, sqrt, legacy);
    };
    d.gpu_supported = true;
    d.usage = s.usage;
    r.add(std::move(d));
  }
  for (bool kurtosis : {false, true}) {
    FunctionDef d;
    d.name = kurtosis ? "kurtosis" : "skewness";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 1;
    std::string name = d.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) { return moments_rule(args, name); };
    d.aggregate = [kurtosis](const Signature&, const EvalContext& ctx) {
      bool legacy = ctx.config && ctx.config->get_bool("spark.sql.legacy.statisticalAggregate", false);
      return std::make_unique<ShapeMoments>(kurtosis, legacy);
    };
    d.usage = kurtosis ? "kurtosis(expr) - Returns the kurtosis value calculated from values of a group."
                       : "skewness(expr) - Returns the skewness value calculated from values of a group.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
