// Two-variable statistics over the rows where both inputs are non-null: corr, covar_pop,
// covar_samp and the regr_* family (regr_count, regr_avgx, regr_avgy, regr_slope,
// regr_intercept, regr_r2, regr_sxx, regr_syy, regr_sxy). Inputs are cast to double (regr_avgx
// and regr_avgy average with avg's own types). The co-moments are updated and merged with the
// same streaming formulas as Spark's Covariance / PearsonCorrelation / CentralMomentAgg, so
// results agree with Spark's up to the order in which partial states merge.
//
// The regr_* functions take (y, x): the dependent variable first.

#include <cmath>

#include "functions/collection_util.h"
#include "functions/function.h"
#include "functions/kernel_util.h"

namespace ember::functions {
namespace {

/// Count, means, co-moment sum and second central moments of (x, y).
struct CoMoments {
  double n;
  double x_avg;
  double y_avg;
  double ck;
  double x_mk;
  double y_mk;
};

enum class Stat { kCorr, kCovarPop, kCovarSamp, kSlope, kIntercept, kR2, kSxx, kSyy, kSxy };

class CoMomentAgg final : public AggregateFunction {
 public:
  /// `x_first`: the first argument is x (corr, covar_*, regr_sxy); otherwise the second is.
  CoMomentAgg(Stat stat, bool x_first, bool legacy) : stat_(stat), x_first_(x_first), legacy_(legacy) {}
  size_t state_size() const override { return sizeof(CoMoments); }
  void init(uint8_t* s) const override { *reinterpret_cast<CoMoments*>(s) = {0, 0, 0, 0, 0, 0}; }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const Column& xc = *args[x_first_ ? 0 : 1];
    const Column& yc = *args[x_first_ ? 1 : 0];
    if (xc.type()->id() == TypeId::kNull || yc.type()->id() == TypeId::kNull) return;
    const double* xs = xc.values<double>();
    const double* ys = yc.values<double>();
    for (int64_t i = 0; i < n; ++i) {
      if (!states[i] || xc.is_null(i) || yc.is_null(i)) continue;
      auto* m = reinterpret_cast<CoMoments*>(states[i]);
      double x = xs[i], y = ys[i];
      double count = m->n + 1.0;
      double dx = x - m->x_avg, dy = y - m->y_avg;
      m->x_avg += dx / count;
      m->y_avg += dy / count;
      m->ck += dx * (y - m->y_avg);
      m->x_mk += dx * (x - m->x_avg);
      m->y_mk += dy * (y - m->y_avg);
      m->n = count;
    }
  }
  void merge(uint8_t* dst, const uint8_t* src) const override {
    auto* a = reinterpret_cast<CoMoments*>(dst);
    auto* b = reinterpret_cast<const CoMoments*>(src);
    // An empty side adds nothing; merging into one copies (see aggregates_stats.cc's Moments).
    if (b->n == 0) return;
    if (a->n == 0) {
      *a = *b;
      return;
    }
    double n1 = a->n, n2 = b->n, count = n1 + n2;
    double dx = b->x_avg - a->x_avg, dy = b->y_avg - a->y_avg;
    double dx_n = count == 0 ? 0.0 : dx / count, dy_n = count == 0 ? 0.0 : dy / count;
    a->x_avg += dx_n * n2;
    a->y_avg += dy_n * n2;
    a->ck += b->ck + dx * dy_n * n1 * n2;
    a->x_mk += b->x_mk + dx * dx_n * n1 * n2;
    a->y_mk += b->y_mk + dy * dy_n * n1 * n2;
    a->n = count;
  }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    for (int64_t i = 0; i < n; ++i) {
      double v;
      if (value(*reinterpret_cast<const CoMoments*>(states[i]), &v)) out.append<double>(v);
      else out.append_null();
    }
  }

 private:
  /// The statistic of one state; false for null.
  bool value(const CoMoments& m, double* v) const {
    if (m.n == 0) return false;
    switch (stat_) {
      case Stat::kCorr:
        if (m.n == 1) return legacy_ ? (*v = NAN, true) : false;
        // Spark divides with null for a zero divisor: a constant input has no correlation.
        if (m.x_mk * m.y_mk == 0) return false;
        *v = m.ck / std::sqrt(m.x_mk * m.y_mk);
        return true;
      case Stat::kCovarPop: *v = m.ck / m.n; return true;
      case Stat::kCovarSamp:
        if (m.n == 1) return legacy_ ? (*v = NAN, true) : false;
        *v = m.ck / (m.n - 1);
        return true;
      case Stat::kSlope:
      case Stat::kIntercept: {
        double var_pop = m.x_mk / m.n;
        if (var_pop == 0) return false;
        double slope = (m.ck / m.n) / var_pop;
        *v = stat_ == Stat::kSlope ? slope : m.y_avg - slope * m.x_avg;
        return true;
      }
      case Stat::kR2:
        if (m.x_mk == 0) return false;
        *v = m.y_mk == 0 ? 1.0 : m.ck * m.ck / (m.x_mk * m.y_mk);
        return true;
      case Stat::kSxx: *v = m.x_mk; return true;
      case Stat::kSyy: *v = m.y_mk; return true;
      case Stat::kSxy: *v = m.ck; return true;
    }
    return false;
  }
  Stat stat_;
  bool x_first_, legacy_;
};

/// Another aggregate over one argument, fed only the rows where a second argument is non-null
/// too (regr_avgx / regr_avgy are avg over such rows).
class BothNonNull final : public AggregateFunction {
 public:
  BothNonNull(std::unique_ptr<AggregateFunction> inner, int value_arg)
      : inner_(std::move(inner)), value_arg_(value_arg) {}
  size_t state_size() const override { return inner_->state_size(); }
  void init(uint8_t* s) const override { inner_->init(s); }
  void update(uint8_t** states, const std::vector<ColumnPtr>& args, int64_t n) const override {
    const ColumnPtr& v = args[static_cast<size_t>(value_arg_)];
    const ColumnPtr& other = args[static_cast<size_t>(1 - value_arg_)];
    if (v->type()->id() == TypeId::kNull || other->type()->id() == TypeId::kNull) return;
    BufferPtr valid = and_validity({v.get(), other.get()}, n);
    inner_->update(states, {valid ? v->with_validity(valid) : v}, n);
  }
  void merge(uint8_t* dst, const uint8_t* src) const override { inner_->merge(dst, src); }
  void finalize(uint8_t* const* states, int64_t n, ColumnBuilder& out) const override {
    inner_->finalize(states, n, out);
  }
  void destroy(uint8_t* s) const override { inner_->destroy(s); }
  bool needs_destroy() const override { return inner_->needs_destroy(); }

 private:
  std::unique_ptr<AggregateFunction> inner_;
  int value_arg_;
};

bool numeric_input(const TypePtr& t) {
  return t->is_numeric() || t->id() == TypeId::kNull || t->id() == TypeId::kString;
}

void require_numeric_args(const std::string& name, const std::vector<TypePtr>& args) {
  for (size_t i = 0; i < args.size(); ++i)
    if (!numeric_input(args[i]))
      throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                          std::string("The ") + ordinal_word(i) + " parameter requires the \"DOUBLE\" type, however \"" +
                              args[i]->sql() + "\" has the type \"" + args[i]->sql() + "\".",
                          name + "(" + args[0]->sql() + ", " + args[1]->sql() + ")");
}

}  // namespace

void register_regression_aggregates(Registry& r) {
  struct Spec {
    const char* name;
    Stat stat;
    bool x_first;
    const char* usage;
  };
  for (Spec s : {
           Spec{"corr", Stat::kCorr, true,
                "corr(expr1, expr2) - Returns Pearson coefficient of correlation between a set of number pairs."},
           Spec{"covar_pop", Stat::kCovarPop, true,
                "covar_pop(expr1, expr2) - Returns the population covariance of a set of number pairs."},
           Spec{"covar_samp", Stat::kCovarSamp, true,
                "covar_samp(expr1, expr2) - Returns the sample covariance of a set of number pairs."},
           Spec{"regr_slope", Stat::kSlope, false,
                "regr_slope(y, x) - Returns the slope of the linear regression line for non-null pairs."},
           Spec{"regr_intercept", Stat::kIntercept, false,
                "regr_intercept(y, x) - Returns the intercept of the univariate linear regression line for "
                "non-null pairs."},
           Spec{"regr_r2", Stat::kR2, false,
                "regr_r2(y, x) - Returns the coefficient of determination for non-null pairs."},
           Spec{"regr_sxx", Stat::kSxx, false,
                "regr_sxx(y, x) - Returns REGR_COUNT(y, x) * VAR_POP(x) for non-null pairs."},
           Spec{"regr_syy", Stat::kSyy, false,
                "regr_syy(y, x) - Returns REGR_COUNT(y, x) * VAR_POP(y) for non-null pairs."},
           Spec{"regr_sxy", Stat::kSxy, true,
                "regr_sxy(y, x) - Returns REGR_COUNT(y, x) * COVAR_POP(y, x) for non-null pairs."},
       }) {
    FunctionDef d;
    d.name = s.name;
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 2;
    std::string name = s.name;
    d.type_rule = [name](const std::vector<TypePtr>& args, const Config&) {
      require_numeric_args(name, args);
      Signature sig;
      sig.arg_types = {DataType::double_(), DataType::double_()};
      sig.result_type = DataType::double_();
      sig.null_if_any_arg_null = false;
      return sig;
    };
    Stat stat = s.stat;
    bool x_first = s.x_first;
    d.aggregate = [stat, x_first](const Signature&, const EvalContext& ctx) {
      bool legacy = ctx.config && ctx.config->get_bool("spark.sql.legacy.statisticalAggregate", false);
      return std::make_unique<CoMomentAgg>(stat, x_first, legacy);
    };
    d.usage = s.usage;
    r.add(std::move(d));
  }
  {
    FunctionDef d;
    d.name = "regr_count";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 2;
    d.type_rule = [](const std::vector<TypePtr>& args, const Config& conf) {
      require_numeric_args("regr_count", args);
      return Registry::instance().find("count")->type_rule(args, conf);
    };
    d.aggregate = [](const Signature& sig, const EvalContext& ctx) {
      return Registry::instance().find("count")->aggregate(sig, ctx);
    };
    d.usage = "regr_count(y, x) - Returns the number of non-null number pairs in a group.";
    r.add(std::move(d));
  }
  for (int value_arg : {1, 0}) {
    FunctionDef d;
    d.name = value_arg == 1 ? "regr_avgx" : "regr_avgy";
    d.kind = FunctionKind::kAggregate;
    d.min_args = d.max_args = 2;
    std::string name = d.name;
    d.type_rule = [name, value_arg](const std::vector<TypePtr>& args, const Config& conf) {
      require_numeric_args(name, args);
      Signature avg = Registry::instance().find("avg")->type_rule({args[static_cast<size_t>(value_arg)]}, conf);
      Signature sig = avg;
      sig.arg_types = args;
      sig.arg_types[static_cast<size_t>(value_arg)] = avg.arg_types[0];
      return sig;
    };
    d.aggregate = [value_arg](const Signature& sig, const EvalContext& ctx) {
      Signature avg = sig;
      avg.arg_types = {sig.arg_types[static_cast<size_t>(value_arg)]};
      return std::make_unique<BothNonNull>(Registry::instance().find("avg")->aggregate(avg, ctx), value_arg);
    };
    d.usage = value_arg == 1 ? "regr_avgx(y, x) - Returns the average of the independent variable for non-null pairs."
                             : "regr_avgy(y, x) - Returns the average of the dependent variable for non-null pairs.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
