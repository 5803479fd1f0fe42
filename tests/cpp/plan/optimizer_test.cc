// Optimizer rules: each rewrites what it should, keeps results, and can be switched off.

#include <gtest/gtest.h>

#include "plan/analyzer.h"
#include "plan/optimizer.h"
#include "plan/session.h"

namespace ember::plan {
namespace {

PlanPtr range(int64_t n) {
  auto r = std::make_shared<PlanNode>();
  r->kind = PlanKind::kRange;
  r->range_end = n;
  return r;
}

PlanPtr unary(PlanKind kind, PlanPtr child) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {std::move(child)};
  return n;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }

/// Project [id, (1 + 2) AS three] over range, filtered on three and id.
PlanPtr sample_plan() {
  auto proj = unary(PlanKind::kProject, range(100));
  const_cast<PlanNode*>(proj.get())->exprs = {col({"id"}), alias(call("+", {i64(1), i64(2)}), "three")};
  auto filter = unary(PlanKind::kFilter, proj);
  const_cast<PlanNode*>(filter.get())->condition =
      call("and", {call(">", {col({"id"}), col({"three"})}), lit(Value::boolean(true), DataType::boolean())});
  return filter;
}

int count_kind(const PlanPtr& p, PlanKind k) {
  int n = p->kind == k;
  for (auto& c : p->children) n += count_kind(c, k);
  return n;
}

TEST(Optimizer, FoldsPushesAndSimplifies) {
  Session s("t");
  PlanPtr analyzed = s.analyze(sample_plan());
  std::vector<RuleRun> runs;
  PlanPtr optimized = optimize_plan(analyzed, s.config(), &runs);
  // The filter moved below the projection, its TRUE conjunct is gone, 1 + 2 became 3.
  ASSERT_EQ(optimized->kind, PlanKind::kProject);
  ASSERT_EQ(optimized->children[0]->kind, PlanKind::kFilter);
  const ExprPtr& cond = optimized->children[0]->condition;
  EXPECT_EQ(cond->to_string(), "(id > 3)");
  EXPECT_EQ(optimized->exprs[1]->children[0]->kind, ExprKind::kLiteral);
  bool folded = false;
  for (auto& r : runs) folded |= r.rule == "ConstantFolding" && r.changed;
  EXPECT_TRUE(folded);
  // Same answer as without optimization.
  auto a = s.execute_analyzed(analyzed);
  s.config().set("spark.sql.optimizer.excludedRules",
                 "org.apache.spark.sql.catalyst.optimizer.ConstantFolding,PushDownFilters,"
                 "BooleanSimplification,CollapseProjects");
  PlanPtr untouched = optimize_plan(analyzed, s.config());
  EXPECT_EQ(untouched, analyzed);
  EXPECT_EQ(a.num_rows(), 96);
}

TEST(Optimizer, FoldingLeavesFailingExpressions) {
  Session s("t");
  auto proj = unary(PlanKind::kProject, range(0));
  const_cast<PlanNode*>(proj.get())->exprs = {alias(call("/", {i64(1), i64(0)}), "x")};
  PlanPtr analyzed = s.analyze(proj);
  PlanPtr optimized = optimize_plan(analyzed, s.config());
  EXPECT_NE(optimized->exprs[0]->children[0]->kind, ExprKind::kLiteral);
  // No rows: the division never runs, so no error.
  EXPECT_EQ(s.execute(proj).num_rows(), 0);
}

TEST(Optimizer, CollapsesProjectChains) {
  Session s("t");
  PlanPtr p = range(10);
  for (int i = 0; i < 3; ++i) {
    auto w = unary(PlanKind::kWithColumns, p);
    const_cast<PlanNode*>(w.get())->exprs = {alias(call("+", {col({"id"}), i64(i)}), "c" + std::to_string(i))};
    p = w;
  }
  PlanPtr optimized = s.optimize(s.analyze(p));
  EXPECT_EQ(count_kind(optimized, PlanKind::kProject), 1);
  auto r = s.execute(p);
  EXPECT_EQ(r.schema.size(), 4u);
  // The range's last row (id 9), in the last batch of its last partition.
  const Batch& last = r.batches.back();
  EXPECT_EQ(last.columns[3]->value_at(last.num_rows - 1).as_int(), 11);
}

TEST(Optimizer, PushesFiltersOnGeneratorInputBelowGenerate) {
  Session s("t");
  // SELECT id, x FROM range(100) LATERAL VIEW explode(array(id, id + 1)) AS x WHERE id < 10 AND x > 3
  auto gen = unary(PlanKind::kGenerate, range(100));
  const_cast<PlanNode*>(gen.get())->exprs = {call("explode", {call("array", {col({"id"}), call("+", {col({"id"}), i64(1)})})})};
  const_cast<PlanNode*>(gen.get())->names = {"x"};
  auto filter = unary(PlanKind::kFilter, gen);
  const_cast<PlanNode*>(filter.get())->condition =
      call("and", {call("<", {col({"id"}), i64(10)}), call(">", {col({"x"}), i64(3)})});
  PlanPtr analyzed = s.analyze(filter);
  PlanPtr optimized = optimize_plan(analyzed, s.config(), nullptr);
  ASSERT_EQ(optimized->kind, PlanKind::kFilter);
  EXPECT_EQ(optimized->condition->to_string(), "(x > 3)");
  const PlanPtr& below = optimized->children[0];
  ASSERT_EQ(below->kind, PlanKind::kGenerate);
  ASSERT_EQ(below->children[0]->kind, PlanKind::kFilter);
  EXPECT_EQ(below->children[0]->condition->to_string(), "(id < 10)");
  auto a = s.execute_analyzed(analyzed);
  EXPECT_EQ(a.num_rows(), 13);  // x in 4..10 from id 3..9 and id + 1
}

}  // namespace
}  // namespace ember::plan
