// The rules for DataFrame.observe metrics, checked before the metrics' aggregate is analyzed.

#include <gtest/gtest.h>

#include "common/error.h"
#include "plan/observed_metrics.h"

namespace ember::plan {
namespace {

/// The error class the metric fails with, or "" when it passes.
std::string failure(const ExprPtr& metric) {
  try {
    check_observed_metric(*metric);
  } catch (const SparkError& e) {
    EXPECT_EQ(e.sql_state(), "42K0E");
    return e.error_class();
  }
  return "";
}

TEST(ObservedMetrics, Rules) {
  ExprPtr x = col({"x"});
  EXPECT_EQ(failure(alias(call("count", {lit(Value::integer(1), DataType::int_())}), "n")), "");
  EXPECT_EQ(failure(alias(call("SUM", {x}), "s")), "");  // functions are found in any case
  EXPECT_EQ(failure(call("+", {call("max", {x}), lit(Value::integer(1), DataType::int_())})), "");
  EXPECT_EQ(failure(x), "INVALID_OBSERVED_METRICS.NON_AGGREGATE_FUNC_ARG_IS_ATTRIBUTE");
  EXPECT_EQ(failure(call("+", {call("sum", {x}), x})),
            "INVALID_OBSERVED_METRICS.NON_AGGREGATE_FUNC_ARG_IS_ATTRIBUTE");
  EXPECT_EQ(failure(call("sum", {call("Max", {x})})), "INVALID_OBSERVED_METRICS.NESTED_AGGREGATES_UNSUPPORTED");
  EXPECT_EQ(failure(call("count", {x}, /*distinct=*/true)),
            "INVALID_OBSERVED_METRICS.AGGREGATE_EXPRESSION_WITH_DISTINCT_UNSUPPORTED");
  EXPECT_EQ(failure(call("rand", {})), "INVALID_OBSERVED_METRICS.NON_AGGREGATE_FUNC_ARG_IS_NON_DETERMINISTIC");
  EXPECT_EQ(failure(call("sum", {call("rand", {})})), "");
}

}  // namespace
}  // namespace ember::plan
