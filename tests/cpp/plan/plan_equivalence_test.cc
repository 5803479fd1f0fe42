// Plan equivalence (up to the renaming of attribute ids) and the reuse of equal subplans and
// scalar subqueries it enables in physical planning.

#include "plan/plan_equivalence.h"

#include <gtest/gtest.h>

#include "plan/session.h"

namespace ember::plan {
namespace {

PlanPtr range(int64_t n) {
  auto r = std::make_shared<PlanNode>();
  r->kind = PlanKind::kRange;
  r->range_end = n;
  return r;
}

PlanPtr node(PlanKind kind, std::vector<PlanPtr> children) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = std::move(children);
  return n;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }

/// SELECT id % m AS k, sum(id) AS s FROM range(n) GROUP BY id % m, with `value` as what is summed.
PlanPtr grouped(int64_t n, int64_t m, ExprPtr value = nullptr) {
  auto agg = node(PlanKind::kAggregate, {range(n)});
  auto* a = const_cast<PlanNode*>(agg.get());
  a->exprs = {alias(call("%", {col({"id"}), i64(m)}), "k")};
  a->aggregates = {alias(call("%", {col({"id"}), i64(m)}), "k"),
                   alias(call("sum", {value ? value : col({"id"})}), "s")};
  a->aggregate_output_is_select_list = true;
  return agg;
}

PlanPtr union_all(PlanPtr a, PlanPtr b) {
  auto u = node(PlanKind::kSetOp, {std::move(a), std::move(b)});
  auto* n = const_cast<PlanNode*>(u.get());
  n->set_op = SetOpType::kUnion;
  n->is_all = true;
  return u;
}

int64_t total_rows(const QueryResult& r) {
  int64_t n = 0;
  for (auto& b : r.batches) n += b.num_rows;
  return n;
}

TEST(PlanEquivalence, EqualUpToFreshAttributeIds) {
  Session s("t");
  PlanPtr a = s.analyze(grouped(100, 7));
  PlanPtr b = s.analyze(grouped(100, 7));
  ASSERT_NE(a->output[0]->expr_id,
            b->output[0]->expr_id);  // each analysis names its own attributes
  EXPECT_TRUE(plan_comparable(a));
  EXPECT_TRUE(plans_equivalent(a, b));
  EXPECT_TRUE(plans_equivalent(a, a));
  EXPECT_EQ(plan_shape_hash(a), plan_shape_hash(b));
}

TEST(PlanEquivalence, DifferentLiteralsRangesOrFunctionsDiffer) {
  Session s("t");
  PlanPtr a = s.analyze(grouped(100, 7));
  EXPECT_FALSE(plans_equivalent(a, s.analyze(grouped(100, 8))));
  EXPECT_FALSE(plans_equivalent(a, s.analyze(grouped(101, 7))));
  auto other = grouped(100, 7);
  const_cast<PlanNode*>(other.get())->aggregates[1] = alias(call("max", {col({"id"})}), "s");
  EXPECT_FALSE(plans_equivalent(a, s.analyze(other)));
  // Same value, other type: 7L vs 7.
  auto typed = grouped(100, 7);
  const_cast<PlanNode*>(typed.get())->exprs = {
      alias(call("%", {col({"id"}), lit(Value::integer(7), DataType::int_())}), "k")};
  const_cast<PlanNode*>(typed.get())->aggregates[0] = typed->exprs[0];
  EXPECT_FALSE(plans_equivalent(a, s.analyze(typed)));
}

TEST(PlanEquivalence, NondeterministicPlansNeverCompareEqual) {
  Session s("t");
  PlanPtr a = s.analyze(grouped(100, 7, call("rand", {i64(42)})));
  EXPECT_FALSE(plan_comparable(a));
  EXPECT_FALSE(plans_equivalent(a, a));
  EXPECT_FALSE(plans_equivalent(a, s.analyze(grouped(100, 7, call("rand", {i64(42)})))));
}

TEST(PlanEquivalence, RepeatedSubplanRunsOnceWithTheSameRows) {
  for (bool reuse : {true, false}) {
    Session s("t");
    s.config().set("spark.sql.exchange.reuse", reuse ? "true" : "false");
    PlanPtr q = union_all(union_all(grouped(1000, 7), grouped(1000, 5)), grouped(1000, 7));
    std::string plan = s.explain(q, ExplainMode::kSimple);
    EXPECT_EQ(plan.find("SharedSubplan") != std::string::npos, reuse) << plan;
    EXPECT_EQ(plan.find("ReusedSubplan") != std::string::npos, reuse) << plan;
    QueryResult r = s.execute(q);
    ASSERT_EQ(total_rows(r), 7 + 7 + 5);
    // Each copy's rows come out in full: per key k, sum(id) over the ids with id % m == k.
    int64_t sum_all = 0;
    for (auto& b : r.batches)
      for (int64_t i = 0; i < b.num_rows; ++i) sum_all += b.columns[1]->value_at(i).as_int();
    EXPECT_EQ(sum_all, 3 * (999 * 1000 / 2));
  }
}

/// SELECT id AS <name>, id % 3 AS <name>_tag, id * 2 AS <name>_2 FROM range(n).
PlanPtr keyed(int64_t n, const std::string& name) {
  auto p = node(PlanKind::kProject, {range(n)});
  const_cast<PlanNode*>(p.get())->exprs = {alias(col({"id"}), name),
                                           alias(call("%", {col({"id"}), i64(3)}), name + "_tag"),
                                           alias(call("*", {col({"id"}), i64(2)}), name + "_2")};
  return p;
}

/// SELECT <key>, <fn>(<value>) FROM j GROUP BY <key>.
PlanPtr aggregate_over(PlanPtr child, const std::string& key, const std::string& fn,
                       const std::string& value) {
  auto agg = node(PlanKind::kAggregate, {std::move(child)});
  auto* a = const_cast<PlanNode*>(agg.get());
  a->exprs = {col({key})};
  a->aggregates = {col({key}), alias(call(fn, {col({value})}), "v")};
  a->aggregate_output_is_select_list = true;
  return agg;
}

TEST(PlanEquivalence, SharedJoinKeepsTheColumnsOfEveryPlace) {
  // Two aggregates over one join read different columns of it: the join runs once, keeping
  // the columns both need.
  for (bool reuse : {true, false}) {
    Session s("t");
    s.config().set("spark.sql.exchange.reuse", reuse ? "true" : "false");
    auto j = node(PlanKind::kJoin, {keyed(300, "a"), keyed(200, "b")});
    const_cast<PlanNode*>(j.get())->join_type = JoinType::kInner;
    const_cast<PlanNode*>(j.get())->condition = call("==", {col({"a_tag"}), col({"b_tag"})});
    PlanPtr q =
        union_all(aggregate_over(j, "a_tag", "sum", "a_2"), aggregate_over(j, "b", "max", "b_2"));
    std::string plan = s.explain(q, ExplainMode::kSimple);
    EXPECT_EQ(plan.find("ReusedSubplan") != std::string::npos, reuse) << plan;
    QueryResult r = s.execute(q);
    ASSERT_EQ(total_rows(r), 3 + 200);
    int64_t sums = 0, maxes = 0, rows = 0;
    for (auto& b : r.batches)
      for (int64_t i = 0; i < b.num_rows; ++i, ++rows)
        (rows < 3 ? sums : maxes) += b.columns[1]->value_at(i).as_int();
    // Each a meets the b of its tag (200 / 3 of them, 67 for tag 0 and 1, 66 for tag 2).
    int64_t want_sums = 0;
    for (int64_t a = 0; a < 300; ++a) want_sums += 2 * a * (a % 3 == 2 ? 66 : 67);
    EXPECT_EQ(sums, want_sums);
    EXPECT_EQ(maxes, 2 * (199 * 200 / 2));
  }
}

TEST(PhysicalPlanning, FilterComputesARepeatedSubexpressionOnce) {
  for (bool eliminate : {true, false}) {
    Session s("t");
    s.config().set("spark.sql.subexpressionElimination.enabled", eliminate ? "true" : "false");
    // hash(id) read three times: one column computed below the filter.
    auto f = node(PlanKind::kFilter, {range(5000)});
    ExprPtr h = call("hash", {col({"id"})});
    const_cast<PlanNode*>(f.get())->condition =
        call("or", {call("or", {call(">", {h, lit(Value::integer(1000000), DataType::int_())}),
                                call("<", {h, lit(Value::integer(-2000000), DataType::int_())})}),
                    call("==", {h, lit(Value::integer(7), DataType::int_())})});
    std::string plan = s.explain(f, ExplainMode::kSimple);
    EXPECT_EQ(plan.find("__hoisted_0") != std::string::npos, eliminate) << plan;
    QueryResult r = s.execute(f);
    ASSERT_EQ(r.schema.size(), 1u);  // the hoisted column stays below
    EXPECT_EQ(r.schema[0].name, "id");
    s.config().set("spark.sql.subexpressionElimination.enabled", "false");
    EXPECT_EQ(r.num_rows(), s.execute(f).num_rows());
    EXPECT_GT(r.num_rows(), 0);
  }
}

}  // namespace
}  // namespace ember::plan
