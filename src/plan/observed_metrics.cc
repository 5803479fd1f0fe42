#include "plan/observed_metrics.h"

#include "common/error.h"
#include "functions/function.h"

namespace ember::plan {

namespace {

void check(const Expr& e, bool inside_aggregate, const Expr& metric) {
  auto fail = [&](const std::string& sub, const std::string& detail) {
    throw SparkError(ErrorKind::kAnalysis, "INVALID_OBSERVED_METRICS." + sub,
                     "Invalid observed metrics. " + detail, {{"expr", metric.to_string()}}, "42K0E");
  };
  switch (e.kind) {
    case ExprKind::kWindow:
      fail("WINDOW_EXPRESSIONS_UNSUPPORTED",
           "Window expressions are not allowed in observed metrics, but found: " + metric.to_string() + ".");
    case ExprKind::kUnresolvedAttribute:
    case ExprKind::kAttribute:
      if (!inside_aggregate)
        fail("NON_AGGREGATE_FUNC_ARG_IS_ATTRIBUTE",
             "Attribute " + e.to_string() + " can only be used as an argument to an aggregate function.");
      return;
    case ExprKind::kUnresolvedFunction:
    case ExprKind::kAggregate:
    case ExprKind::kCall: {
      // The registry finds functions by name in any letter case, as Spark resolves them.
      const functions::FunctionDef* def = functions::Registry::instance().find(e.name);
      const bool aggregate = e.kind == ExprKind::kAggregate ||
                             (def != nullptr && def->kind == functions::FunctionKind::kAggregate);
      if (aggregate) {
        if (inside_aggregate)
          fail("NESTED_AGGREGATES_UNSUPPORTED",
               "Nested aggregates are not allowed in observed metrics, but found: " + metric.to_string() + ".");
        if (e.distinct)
          fail("AGGREGATE_EXPRESSION_WITH_DISTINCT_UNSUPPORTED",
               "Aggregate expressions with DISTINCT are not allowed in observed metrics, but found: " +
                   metric.to_string() + ".");
        if (e.filter)
          fail("AGGREGATE_EXPRESSION_WITH_FILTER_UNSUPPORTED",
               "Aggregate expression with FILTER predicate are not allowed in observed metrics, but found: " +
                   metric.to_string() + ".");
      } else if (!inside_aggregate && def != nullptr && !def->deterministic) {
        fail("NON_AGGREGATE_FUNC_ARG_IS_NON_DETERMINISTIC",
             "Non-deterministic expression " + e.to_string() +
                 " can only be used as an argument to an aggregate function.");
      }
      for (const auto& c : e.children) check(*c, inside_aggregate || aggregate, metric);
      return;
    }
    default:
      for (const auto& c : e.children) check(*c, inside_aggregate, metric);
  }
}

}  // namespace

void check_observed_metric(const Expr& metric) { check(metric, false, metric); }

}  // namespace ember::plan
