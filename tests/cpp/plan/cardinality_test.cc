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

}  // namespace
}  // namespace ember::plan
