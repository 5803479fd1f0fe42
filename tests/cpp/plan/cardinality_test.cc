// Row-count estimates, and the join side they pick to build.

#include <gtest/gtest.h>

#include <algorithm>

#include "plan/cardinality.h"
#include "plan/session.h"

namespace ember::plan {
namespace {

PlanPtr range(int64_t n) {
  auto r = std::make_shared<PlanNode>();
  r->kind = PlanKind::kRange;
  r->range_end = n;
  return r;
}

/// range(n) with its id renamed to `name` and a second column `name`_tag = id % 3.
PlanPtr keyed(int64_t n, const std::string& name) {
  auto p = std::make_shared<PlanNode>();
  p->kind = PlanKind::kProject;
  p->children = {range(n)};
  p->exprs = {alias(col({"id"}), name),
              alias(call("%", {col({"id"}), lit(Value::integer(3), DataType::long_())}), name + "_tag")};
  return p;
}

PlanPtr join(PlanPtr l, PlanPtr r, JoinType type, ExprPtr condition) {
  auto j = std::make_shared<PlanNode>();
  j->kind = PlanKind::kJoin;
  j->children = {std::move(l), std::move(r)};
  j->join_type = type;
  j->condition = std::move(condition);
  return j;
}

std::vector<std::string> sorted_rows(const QueryResult& r) {
  std::vector<std::string> rows;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string row;
      for (auto& c : b.columns) {
        Value v = c->value_at(i);
        row += (v.is_null() ? std::string("null") : std::to_string(v.as_int())) + "|";
      }
      rows.push_back(row);
    }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(Cardinality, EstimatesFollowTheRules) {
  Session s("t");
  EXPECT_DOUBLE_EQ(estimate_rows(s.analyze(range(1000))), 1000);
  auto filter = std::make_shared<PlanNode>();
  filter->kind = PlanKind::kFilter;
  filter->children = {range(1000)};
  filter->condition = call("==", {col({"id"}), lit(Value::integer(7), DataType::long_())});
  EXPECT_NEAR(estimate_rows(s.analyze(filter)), 100, 1e-6);
  auto equi = join(keyed(10, "a"), keyed(1000, "b"), JoinType::kInner, call("==", {col({"a"}), col({"b"})}));
  EXPECT_DOUBLE_EQ(estimate_rows(s.analyze(equi)), 1000);
  auto cross = join(keyed(10, "a"), keyed(1000, "b"), JoinType::kCross, nullptr);
  EXPECT_DOUBLE_EQ(estimate_rows(s.analyze(cross)), 10000);
}

TEST(Cardinality, JoinsBuildTheSmallerSideWithTheSameAnswer) {
  for (JoinType type : {JoinType::kInner, JoinType::kLeftOuter, JoinType::kRightOuter, JoinType::kFullOuter}) {
    Session s("t");
    // The small side is on the left: the planner mirrors the join to build it.
    auto q = join(keyed(50, "a"), keyed(2000, "b"), type,
                  call("and", {call("==", {col({"a_tag"}), col({"b_tag"})}),
                               call("<", {col({"a"}), col({"b"})})}));
    std::string plan = s.explain(q, ExplainMode::kSimple);
    EXPECT_NE(plan.find("Project"), std::string::npos) << plan;
    QueryResult mirrored = s.execute(q);
    s.config().set("spark.ember.join.buildSmallerSide", "false");
    QueryResult as_written = s.execute(q);
    ASSERT_EQ(mirrored.schema.size(), 4u);
    for (size_t i = 0; i < mirrored.schema.size(); ++i)
      EXPECT_EQ(mirrored.schema[i].name, as_written.schema[i].name);
    EXPECT_EQ(sorted_rows(mirrored), sorted_rows(as_written)) << join_type_name(type);
    EXPECT_GT(mirrored.num_rows(), 0);
  }
}

PlanPtr filtered(PlanPtr child, ExprPtr condition) {
  auto f = std::make_shared<PlanNode>();
  f->kind = PlanKind::kFilter;
  f->children = {std::move(child)};
  f->condition = std::move(condition);
  return f;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }

TEST(Cardinality, FilteredInputsOfAnInnerJoinKeepTheirShare) {
  Session s("t");
  // A filter keeping a tenth of the small side keeps a tenth of the join's rows.
  auto dim = filtered(keyed(10, "a"), call("==", {col({"a_tag"}), i64(1)}));
  auto q = s.analyze(join(keyed(1000, "b"), dim, JoinType::kInner, call("==", {col({"a"}), col({"b"})})));
  RowEstimate e = estimate_rows_and_base(q);
  EXPECT_NEAR(e.rows, 100, 1e-6);
  EXPECT_NEAR(e.base, 1000, 1e-6);
  EXPECT_NEAR(estimate_rows(q), 100, 1e-6);
  // Outer joins keep the larger input.
  auto outer = s.analyze(join(keyed(1000, "b"), dim, JoinType::kLeftOuter, call("==", {col({"a"}), col({"b"})})));
  EXPECT_NEAR(estimate_rows(outer), 1000, 1e-6);
}

/// The inputs of the innermost join chain under `p`, left to right, by their first column's name.
void chain_inputs(const PlanPtr& p, std::vector<std::string>& out) {
  if (p->kind == PlanKind::kJoin) {
    chain_inputs(p->children[0], out);
    chain_inputs(p->children[1], out);
    return;
  }
  if (p->kind == PlanKind::kProject && p->children[0]->kind == PlanKind::kJoin) {
    chain_inputs(p->children[0], out);
    return;
  }
  out.push_back(p->output[0]->name);
}

TEST(Cardinality, InnerJoinChainsMeetFilteredInputsFirst) {
  // fact(f) joins big(g) on a key with many matches and small(a) filtered to a tenth: the
  // filtered input comes first by the estimates, as written with them switched off; the
  // answers are equal.
  for (bool by_estimates : {true, false}) {
    Session s("t");
    s.config().set("spark.ember.join.reorderByEstimates", by_estimates ? "true" : "false");
    auto fact = keyed(3000, "f");
    auto big = keyed(20000, "g");
    auto small = filtered(keyed(100, "a"), call("==", {col({"a_tag"}), i64(1)}));
    auto q = join(join(fact, big, JoinType::kInner, call("==", {col({"f_tag"}), col({"g_tag"})})), small,
                  JoinType::kInner, call("==", {col({"f"}), col({"a"})}));
    PlanPtr optimized = s.optimize(s.analyze(q));
    std::vector<std::string> inputs;
    chain_inputs(optimized, inputs);
    ASSERT_EQ(inputs.size(), 3u);
    EXPECT_EQ(inputs[0], "f");
    EXPECT_EQ(inputs[1], by_estimates ? "a" : "g");
    QueryResult r = s.execute(q);
    EXPECT_EQ(r.num_rows(), 33 * 6667);  // f in 1, 4, ..., 97 (tag 1), each meeting every g of tag 1
  }
}

TEST(Cardinality, InputsJoinedWithoutAnEqualityComeAfterKeyedOnes) {
  // small is filtered but only a non-equality relates it to fact: joining it first would
  // compare every pair, so big (an equality on tags) comes first.
  Session s("t");
  auto fact = keyed(300, "f");
  auto big = keyed(2000, "g");
  auto small = filtered(keyed(100, "a"), call("==", {col({"a_tag"}), i64(1)}));
  auto q = join(join(fact, small, JoinType::kInner, call("<", {col({"f"}), col({"a"})})), big, JoinType::kInner,
                call("==", {col({"f"}), col({"g"})}));
  PlanPtr optimized = s.optimize(s.analyze(q));
  std::vector<std::string> inputs;
  chain_inputs(optimized, inputs);
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[1], "g");
  EXPECT_EQ(s.execute(q).num_rows(), 1617);  // f < a for a in 1, 4, ..., 97: the sum of those a
}

TEST(Cardinality, AnUnfilteredInputJoinedOnAColumnThatIsNoKeyWaitsItsTurn) {
  // TPC-H Q5's shape: c is written before o (joined on a key) and s (joined on the tags, which
  // repeat on both sides). s is smaller by the estimates, but only a filtered input may take the
  // written order's place: s x c on the tags would give every pair of equal tags.
  Session s("t");
  auto q = join(join(keyed(1500, "c"), keyed(15000, "o"), JoinType::kInner, call("==", {col({"c"}), col({"o"})})),
                keyed(100, "s"), JoinType::kInner, call("==", {col({"c_tag"}), col({"s_tag"})}));
  std::vector<std::string> inputs;
  chain_inputs(s.optimize(s.analyze(q)), inputs);
  EXPECT_EQ(inputs, (std::vector<std::string>{"c", "o", "s"}));
  EXPECT_EQ(s.execute(q).num_rows(), 500 * 34 + 500 * 33 + 500 * 33);
}

TEST(Cardinality, AJoinOnAKeyThatRepeatsInTheJoinedInputsCountsEveryPair) {
  // TPC-H Q7's shape: sup joins nat (3 rows) on its tag, so nat's key repeats in sup x nat; cust
  // joined on that key meets every sup of its tag (many to many), which the estimate must see,
  // so the filtered fact table li comes first although cust is smaller by the key-join rule.
  Session s("t");
  auto sup_nat = join(keyed(100, "sup"), keyed(3, "nat"), JoinType::kInner, call("==", {col({"sup_tag"}), col({"nat"})}));
  auto with_cust = join(sup_nat, keyed(1000, "cust"), JoinType::kInner, call("==", {col({"cust_tag"}), col({"nat"})}));
  auto li = filtered(keyed(3000, "li"), call("not", {call("==", {col({"li_tag"}), i64(1)})}));
  auto q = join(with_cust, li, JoinType::kInner,
                call("and", {call("==", {col({"li"}), col({"sup"})}), call("==", {col({"li_tag"}), col({"cust_tag"})})}));
  std::vector<std::string> inputs;
  chain_inputs(s.optimize(s.analyze(q)), inputs);
  EXPECT_EQ(inputs, (std::vector<std::string>{"sup", "nat", "li", "cust"}));
  // li in 0..99 with tag 0 or 2 meets its sup, then every cust of the same tag.
  EXPECT_EQ(s.execute(q).num_rows(), 34 * 334 + 33 * 333);
}

TEST(Cardinality, InputsThatMultiplyRowsWaitForEveryKeyedInput) {
  // The shape of TPC-H q7: s meets n by a key, n2 (m) is related to n only by a non-equality
  // and keys c, and the large l is the key of both s and c. Taking m before l would pair every
  // s with its m, and then with every c of that m, before l is met; m waits until c keys it.
  // The answers are those of the written order.
  std::vector<std::string> rows[2];
  for (bool by_estimates : {true, false}) {
    Session s("t");
    s.config().set("spark.ember.join.reorderByEstimates", by_estimates ? "true" : "false");
    auto q = join(keyed(1000, "s"), keyed(100000, "l"), JoinType::kInner, call("==", {col({"s"}), col({"l"})}));
    q = join(q, keyed(1000, "c"), JoinType::kInner, call("==", {col({"c"}), col({"l"})}));
    q = join(q, keyed(3, "n"), JoinType::kInner, call("==", {col({"s_tag"}), col({"n"})}));
    q = join(q, keyed(3, "m"), JoinType::kInner,
             call("and", {call("<=", {col({"n"}), col({"m"})}), call("==", {col({"c_tag"}), col({"m"})})}));
    PlanPtr optimized = s.optimize(s.analyze(q));
    std::vector<std::string> inputs;
    chain_inputs(optimized, inputs);
    // n is no filtered input, so it keeps its written place behind l, the keyed next one.
    if (by_estimates) EXPECT_EQ(inputs, (std::vector<std::string>{"s", "l", "c", "n", "m"}));
    QueryResult r = s.execute(q);
    EXPECT_EQ(r.num_rows(), 1000);
    rows[by_estimates] = sorted_rows(r);
  }
  EXPECT_EQ(rows[0], rows[1]);
}

}  // namespace
}  // namespace ember::plan

namespace ember::plan {
namespace {

PlanPtr unary(PlanKind kind, PlanPtr child, int64_t limit = 0) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {std::move(child)};
  n->limit = limit;
  return n;
}

TEST(MaxRows, BoundsAsSparksMaxRows) {
  Session s("t");
  auto bound = [&](const PlanPtr& p) { return max_rows(s.analyze(p)); };
  EXPECT_EQ(bound(range(5)), 5);
  EXPECT_EQ(bound(unary(PlanKind::kLimit, range(5), 2)), 2);
  EXPECT_EQ(bound(unary(PlanKind::kOffset, range(5), 2)), 3);
  EXPECT_EQ(bound(unary(PlanKind::kOffset, range(5), 9)), 0);
  EXPECT_EQ(bound(filtered(range(5), call(">", {col({"id"}), i64(2)}))), 5);
  // A join multiplies; an outer join keeps its preserved side's rows at least; a semi join
  // keeps the left side's.
  EXPECT_EQ(bound(join(keyed(3, "a"), keyed(4, "b"), JoinType::kCross, nullptr)), 12);
  EXPECT_EQ(bound(join(keyed(3, "a"), unary(PlanKind::kLimit, keyed(4, "b"), 0), JoinType::kLeftOuter, nullptr)), 3);
  EXPECT_EQ(bound(join(keyed(3, "a"), keyed(0, "b"), JoinType::kFullOuter, nullptr)), 3);
  EXPECT_EQ(bound(join(keyed(3, "a"), keyed(4, "b"), JoinType::kLeftSemi, call("==", {col({"a"}), col({"b"})}))), 3);
  // An aggregate without keys is one row; with keys as many as its input.
  auto global = std::make_shared<PlanNode>();
  global->kind = PlanKind::kAggregate;
  global->children = {range(100)};
  global->aggregates = {alias(call("count", {col({"id"})}), "n")};
  EXPECT_EQ(bound(global), 1);
  // Drawn with replacement, a sample may repeat rows.
  auto sample = unary(PlanKind::kSample, range(5));
  std::const_pointer_cast<PlanNode>(sample)->with_replacement = true;
  EXPECT_EQ(bound(sample), std::nullopt);
  std::const_pointer_cast<PlanNode>(sample)->with_replacement = false;
  EXPECT_EQ(bound(sample), 5);
}

}  // namespace
}  // namespace ember::plan
