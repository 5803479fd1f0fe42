// SQL lambdas end to end on a session (the standalone build has no Connect client): variable
// scoping and shadowing, nested lambdas over outer variables, and the analysis errors of
// lambdas that do not fit. Expected values were checked against Apache Spark 4.

#include <gtest/gtest.h>

#include "common/error.h"
#include "sql/statement.h"

namespace ember::sql {
namespace {

/// The single value of a one-row, one-column result as text ([1, 2] for arrays of ints).
std::string value_text(const ColumnPtr& c, int64_t i) {
  if (c->is_null(i)) return "null";
  if (c->type()->id() == TypeId::kArray) {
    std::string s = "[";
    for (int32_t p = c->offsets()[i]; p < c->offsets()[i + 1]; ++p)
      s += (p > c->offsets()[i] ? ", " : "") + value_text(c->child(0), p);
    return s + "]";
  }
  if (c->type()->id() == TypeId::kBoolean) return c->bool_at(i) ? "true" : "false";
  return std::to_string(c->value_at(i).as_int());
}

std::string one(plan::Session& s, const std::string& sql) {
  auto r = execute_statement(s, sql);
  EXPECT_EQ(r.batches.size(), 1u);
  return value_text(r.batches.at(0).columns.at(0), 0);
}

std::string error_of(plan::Session& s, const std::string& sql) {
  try {
    execute_statement(s, sql);
  } catch (const SparkError& e) {
    return e.error_class();
  }
  return "no error";
}

TEST(SqlLambda, VariablesShadowColumnsThatStayVisibleOtherwise) {
  plan::Session s("t");
  EXPECT_EQ(one(s, "SELECT transform(array(1, 2), x -> x + y) FROM VALUES (10, 100) t(x, y)"), "[101, 102]");
  EXPECT_EQ(one(s, "SELECT transform(array(1, 2), (x, i) -> x * 10 + i)"), "[10, 21]");
  EXPECT_EQ(one(s, "SELECT aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x, acc -> acc * 10)"), "60");
}

TEST(SqlLambda, NestedLambdasReadOuterVariables) {
  plan::Session s("t");
  EXPECT_EQ(one(s, "SELECT transform(array(array(1, 2), array(3)), a -> transform(a, x -> x + size(a)))"),
            "[[3, 4], [4]]");
  EXPECT_EQ(one(s, "SELECT transform(array(1, 2), x -> transform(array(10, 20), x -> x + 1))"),
            "[[11, 21], [11, 21]]");
  EXPECT_EQ(one(s, "SELECT exists(array(array(1), array(2, 3)), a -> forall(a, x -> x > 1))"), "true");
}

TEST(SqlLambda, LambdasThatDoNotFitAreAnalysisErrors) {
  plan::Session s("t");
  EXPECT_EQ(error_of(s, "SELECT transform(array(1), (x, y, z) -> x)"), "INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH");
  EXPECT_EQ(error_of(s, "SELECT transform(array(1), (x, X) -> x)"), "INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES");
  EXPECT_EQ(error_of(s, "SELECT abs(x -> x)"), "INVALID_LAMBDA_FUNCTION_CALL.NON_HIGHER_ORDER_FUNCTION");
  EXPECT_EQ(error_of(s, "SELECT transform(1, x -> x)"), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_EQ(error_of(s, "SELECT aggregate(array(1), 0, (acc, x) -> acc + 1.5D)"),
            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_EQ(error_of(s, "SELECT transform_keys(map(1, 2, 3, 4), (k, v) -> 0)"), "DUPLICATED_MAP_KEY");
}

}  // namespace
}  // namespace ember::sql
