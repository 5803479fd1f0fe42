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
                 "BooleanSimplification,CollapseProjects,ColumnPruning,LimitPushDown");
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

TEST(Optimizer, EliminatesSubqueryAliasesAndNoopProjections) {
  Session s("t");
  // SELECT t.id FROM (SELECT * FROM range(5)) t: the alias and both projections do nothing.
  auto star = unary(PlanKind::kProject, range(5));
  const_cast<PlanNode*>(star.get())->exprs = {col({"id"})};
  auto aliased = unary(PlanKind::kSubqueryAlias, star);
  const_cast<PlanNode*>(aliased.get())->alias = "t";
  auto top = unary(PlanKind::kProject, aliased);
  const_cast<PlanNode*>(top.get())->exprs = {col({"t", "id"})};
  PlanPtr analyzed = s.analyze(top);
  EXPECT_EQ(count_kind(analyzed, PlanKind::kSubqueryAlias), 1);
  PlanPtr optimized = s.optimize(analyzed);
  EXPECT_EQ(optimized->kind, PlanKind::kRange);
  EXPECT_EQ(optimized->output[0]->expr_id, analyzed->output[0]->expr_id);
  // Each can be switched off by Ember's key; Spark's excludedRules cannot exclude the aliases'.
  s.config().set("spark.sql.optimizer.excludedRules",
                 "EliminateSubqueryAliases,RemoveNoopOperators");
  optimized = s.optimize(analyzed);
  EXPECT_EQ(count_kind(optimized, PlanKind::kSubqueryAlias), 0);
  EXPECT_EQ(count_kind(optimized, PlanKind::kProject), 1);
  s.config().set("spark.ember.optimizer.EliminateSubqueryAliases.enabled", "false");
  EXPECT_EQ(count_kind(s.optimize(analyzed), PlanKind::kSubqueryAlias), 1);
  EXPECT_EQ(s.execute(top).num_rows(), 5);
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

PlanPtr with_exprs(PlanKind kind, PlanPtr child, std::vector<ExprPtr> exprs) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {std::move(child)};
  n->exprs = std::move(exprs);
  return n;
}

/// Project [id, id + 1 AS a, id * 2 AS b, hash(id) AS c] over range(n).
PlanPtr wide(int64_t n) {
  return with_exprs(PlanKind::kProject, range(n),
                    {col({"id"}), alias(call("+", {col({"id"}), i64(1)}), "a"),
                     alias(call("*", {col({"id"}), i64(2)}), "b"), alias(call("hash", {col({"id"})}), "c")});
}

const PlanNode* find_kind(const PlanPtr& p, PlanKind k) {
  if (p->kind == k) return p.get();
  for (auto& c : p->children)
    if (auto* f = find_kind(c, k)) return f;
  return nullptr;
}

int64_t first_long(const QueryResult& r, size_t column) {
  for (auto& b : r.batches)
    if (b.num_rows > 0) return b.columns[column]->value_at(0).as_int();
  return -1;
}

TEST(Optimizer, ColumnPruningDropsWhatNoOperatorReads) {
  Session s("t");
  // SELECT sum(a) FROM (SELECT id, a, b, c FROM range(10)) WHERE b > 4
  auto filter = unary(PlanKind::kFilter, wide(10));
  const_cast<PlanNode*>(filter.get())->condition = call(">", {col({"b"}), i64(4)});
  auto agg = with_exprs(PlanKind::kAggregate, filter, {});
  const_cast<PlanNode*>(agg.get())->aggregates = {alias(call("sum", {col({"a"})}), "s")};
  PlanPtr analyzed = s.analyze(agg);
  std::vector<RuleRun> runs;
  PlanPtr optimized = optimize_plan(analyzed, s.config(), &runs);
  const PlanNode* proj = find_kind(optimized, PlanKind::kProject);
  ASSERT_NE(proj, nullptr);
  ASSERT_EQ(proj->exprs.size(), 1u) << plan_tree_string(optimized);  // a; the filter moved below
  EXPECT_EQ(proj->output[0]->name, "a");
  bool pruned = false;
  for (auto& r : runs) pruned |= r.rule == "ColumnPruning" && r.changed;
  EXPECT_TRUE(pruned);
  QueryResult on = s.execute_analyzed(analyzed);
  s.config().set("spark.sql.optimizer.excludedRules", "org.apache.spark.sql.catalyst.optimizer.ColumnPruning");
  PlanPtr kept = optimize_plan(analyzed, s.config());
  EXPECT_EQ(find_kind(kept, PlanKind::kProject)->exprs.size(), 4u) << plan_tree_string(kept);
  QueryResult off = s.execute_analyzed(analyzed);
  EXPECT_EQ(first_long(on, 0), 4 + 5 + 6 + 7 + 8 + 9 + 10);
  EXPECT_EQ(first_long(off, 0), first_long(on, 0));
}

TEST(Optimizer, ColumnPruningNarrowsUnionAllByPosition) {
  Session s("t");
  auto u = std::make_shared<PlanNode>();
  u->kind = PlanKind::kSetOp;
  u->set_op = SetOpType::kUnion;
  u->is_all = true;
  u->children = {wide(5), wide(7)};
  PlanPtr q = with_exprs(PlanKind::kProject, u, {col({"b"})});
  PlanPtr analyzed = s.analyze(q);
  PlanPtr optimized = s.optimize(analyzed);
  const PlanNode* un = find_kind(optimized, PlanKind::kSetOp);
  ASSERT_NE(un, nullptr);
  EXPECT_EQ(un->output.size(), 1u) << plan_tree_string(optimized);
  for (auto& c : un->children) EXPECT_EQ(c->output.size(), 1u);
  EXPECT_EQ(s.execute_analyzed(analyzed).num_rows(), 12);
}

TEST(Optimizer, ScansKeepEveryColumnWithColumnPruningExcluded) {
  Session s("t");
  PlanPtr q = with_exprs(PlanKind::kProject, wide(4), {col({"a"})});
  std::string plan = s.explain(q, ExplainMode::kSimple);
  EXPECT_EQ(plan.find("hash(id"), std::string::npos) << plan;
  s.config().set("spark.sql.optimizer.excludedRules", "ColumnPruning,CollapseProjects");
  plan = s.explain(q, ExplainMode::kSimple);
  EXPECT_NE(plan.find("hash(id"), std::string::npos) << plan;
  EXPECT_EQ(s.execute(q).num_rows(), 4);
}

TEST(Optimizer, LimitPushDownIntoUnionAllAndOuterJoin) {
  Session s("t");
  auto u = std::make_shared<PlanNode>();
  u->kind = PlanKind::kSetOp;
  u->set_op = SetOpType::kUnion;
  u->is_all = true;
  u->children = {range(100), range(2)};
  auto limit = unary(PlanKind::kLimit, u);
  const_cast<PlanNode*>(limit.get())->limit = 3;
  PlanPtr optimized = s.optimize(s.analyze(limit));
  const PlanNode* un = find_kind(optimized, PlanKind::kSetOp);
  ASSERT_NE(un, nullptr);
  ASSERT_EQ(un->children.size(), 2u) << plan_tree_string(optimized);
  // range(2) has fewer rows than the limit already.
  EXPECT_EQ(un->children[0]->kind, PlanKind::kLimit);
  EXPECT_FALSE(un->children[0]->is_global);
  EXPECT_EQ(un->children[0]->limit, 3);
  EXPECT_EQ(un->children[1]->kind, PlanKind::kRange);
  EXPECT_NE(plan_tree_string(optimized).find("LocalLimit 3"), std::string::npos);
  EXPECT_EQ(s.execute(limit).num_rows(), 3);
  // A second pass finds nothing more to push.
  EXPECT_EQ(make_limit_push_down()->apply(optimized, s.config()), optimized);

  // range(100) LEFT JOIN (SELECT id AS k FROM range(50)) ON id = k LIMIT 4
  auto join = std::make_shared<PlanNode>();
  join->kind = PlanKind::kJoin;
  join->join_type = JoinType::kLeftOuter;
  join->children = {range(100), with_exprs(PlanKind::kProject, range(50), {alias(col({"id"}), "k")})};
  join->condition = call("==", {col({"id"}), col({"k"})});
  auto jl = unary(PlanKind::kLimit, join);
  const_cast<PlanNode*>(jl.get())->limit = 4;
  PlanPtr analyzed = s.analyze(jl);
  optimized = s.optimize(analyzed);
  const PlanNode* j = find_kind(optimized, PlanKind::kJoin);
  ASSERT_NE(j, nullptr);
  EXPECT_EQ(j->children[0]->kind, PlanKind::kLimit) << plan_tree_string(optimized);
  EXPECT_EQ(j->children[1]->kind, PlanKind::kProject);
  EXPECT_EQ(s.execute_analyzed(analyzed).num_rows(), 4);
  s.config().set("spark.sql.optimizer.excludedRules", "LimitPushDown");
  PlanPtr kept = s.optimize(analyzed);
  ASSERT_NE(find_kind(kept, PlanKind::kJoin), nullptr);
  EXPECT_EQ(find_kind(kept, PlanKind::kJoin)->children[0]->kind, PlanKind::kRange) << plan_tree_string(kept);
}

TEST(Optimizer, LimitPushDownBelowOffsetAndOntoSortThroughProject) {
  Session s("t");
  auto off = unary(PlanKind::kOffset, range(100));
  const_cast<PlanNode*>(off.get())->limit = 5;
  auto lim = unary(PlanKind::kLimit, off);
  const_cast<PlanNode*>(lim.get())->limit = 3;
  PlanPtr optimized = s.optimize(s.analyze(lim));
  ASSERT_EQ(optimized->children[0]->kind, PlanKind::kOffset);
  ASSERT_EQ(optimized->children[0]->children[0]->kind, PlanKind::kLimit);
  EXPECT_EQ(optimized->children[0]->children[0]->limit, 8);
  QueryResult r = s.execute(lim);
  ASSERT_EQ(r.num_rows(), 3);
  EXPECT_EQ(first_long(r, 0), 5);

  // SELECT id + 1 AS x FROM (SELECT * FROM range(100) ORDER BY id DESC) LIMIT 2: a top-N sort.
  auto sort = with_exprs(PlanKind::kSort, range(100), {sort_order(col({"id"}), false, false)});
  auto proj = with_exprs(PlanKind::kProject, sort, {alias(call("+", {col({"id"}), i64(1)}), "x")});
  auto top = unary(PlanKind::kLimit, proj);
  const_cast<PlanNode*>(top.get())->limit = 2;
  optimized = s.optimize(s.analyze(top));
  const PlanNode* below = find_kind(optimized, PlanKind::kProject);
  ASSERT_NE(below, nullptr);
  EXPECT_EQ(below->children[0]->kind, PlanKind::kLimit) << plan_tree_string(optimized);
  r = s.execute(top);
  ASSERT_EQ(r.num_rows(), 2);
  EXPECT_EQ(first_long(r, 0), 100);
}

TEST(Optimizer, ProjectionComputesARepeatedSubexpressionOnce) {
  for (bool eliminate : {true, false}) {
    Session s("t");
    s.config().set("spark.sql.subexpressionElimination.enabled", eliminate ? "true" : "false");
    ExprPtr h = call("hash", {col({"id"})});
    PlanPtr q = with_exprs(PlanKind::kProject, range(100),
                           {alias(call("+", {h, lit(Value::integer(1), DataType::int_())}), "x"),
                            alias(call("==", {h, lit(Value::integer(7), DataType::int_())}), "y")});
    std::string plan = s.explain(q, ExplainMode::kSimple);
    EXPECT_EQ(plan.find("__hoisted_0") != std::string::npos, eliminate) << plan;
    QueryResult r = s.execute(q);
    ASSERT_EQ(r.schema.size(), 2u);
    EXPECT_EQ(r.schema[0].name, "x");
    EXPECT_EQ(r.num_rows(), 100);
  }
}

}  // namespace
}  // namespace ember::plan
