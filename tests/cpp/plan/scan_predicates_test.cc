#include <gtest/gtest.h>

#include "functions/function.h"
#include "plan/scan_predicates.h"

namespace ember::plan {
namespace {

using Op = io::ScanPredicate::Op;

ExprPtr resolved_call(const std::string& name, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->function = functions::Registry::instance().find(name);
  EXPECT_NE(e->function, nullptr) << name;
  e->type = DataType::boolean();
  e->children = std::move(args);
  return e;
}

TEST(ScanPredicates, SimpleConjunctsOverScanColumns) {
  auto a = attribute("a", DataType::long_(), true, 101);
  auto b = attribute("b", DataType::string(), true, 102);
  auto other = attribute("c", DataType::long_(), true, 999);
  auto five = lit(Value::integer(5), DataType::long_());
  auto cond = resolved_call(
      "and", {resolved_call("and", {resolved_call(">", {a, five}),
                                    resolved_call("<=", {five, a})}),  // mirrored: a >= 5
              resolved_call("and", {resolved_call("isnull", {b}),
                                    resolved_call("==", {other, five})})});  // not a scan column
  auto preds = scan_predicates(cond, {a, b});
  ASSERT_EQ(preds.size(), 3u);
  EXPECT_EQ(preds[0].column, 0);
  EXPECT_EQ(preds[0].op, Op::kGt);
  EXPECT_EQ(preds[0].value.as_int(), 5);
  EXPECT_EQ(preds[1].op, Op::kGe);
  EXPECT_EQ(preds[2].column, 1);
  EXPECT_EQ(preds[2].op, Op::kIsNull);
}

TEST(ScanPredicates, DisjunctionsAndMismatchedTypesAreLeftOut) {
  auto a = attribute("a", DataType::long_(), true, 101);
  auto five = lit(Value::integer(5), DataType::long_());
  auto five_int = lit(Value::integer(5), DataType::int_());
  EXPECT_TRUE(scan_predicates(resolved_call("or", {resolved_call(">", {a, five}),
                                                   resolved_call("<", {a, five})}),
                              {a})
                  .empty());
  EXPECT_TRUE(scan_predicates(resolved_call(">", {a, five_int}), {a}).empty());
  EXPECT_TRUE(scan_predicates(nullptr, {a}).empty());
}

}  // namespace
}  // namespace ember::plan
