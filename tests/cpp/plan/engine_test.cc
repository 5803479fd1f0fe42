// End-to-end tests of the CPU engine through the session API (analysis, planning, execution).

#include <gtest/gtest.h>

#include "common/error.h"
#include "plan/session.h"

namespace ember::plan {
namespace {

PlanPtr range(int64_t start, int64_t end, int64_t step = 1) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRange;
  n->range_start = start;
  n->range_end = end;
  n->range_step = step;
  return n;
}

PlanPtr unary(PlanKind kind, PlanPtr child) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {std::move(child)};
  return n;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }

std::vector<Value> column_values(const QueryResult& r, size_t c) {
  std::vector<Value> out;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) out.push_back(b.columns[c]->value_at(i));
  return out;
}

TEST(Engine, RangeCountsAndOrders) {
  Session s("t");
  auto r = s.execute(range(0, 200000, 3));
  ASSERT_EQ(r.schema.size(), 1u);
  EXPECT_EQ(r.schema[0].name, "id");
  EXPECT_FALSE(r.schema[0].nullable);
  auto v = column_values(r, 0);
  ASSERT_EQ(v.size(), 66667u);
  for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i].as_int(), static_cast<int64_t>(i) * 3);
}

TEST(Engine, FilterProjectAggregateSort) {
  Session s("t");
  auto filter = unary(PlanKind::kFilter, range(0, 1000));
  const_cast<PlanNode*>(filter.get())->condition = call(">=", {col({"id"}), i64(10)});
  auto proj = unary(PlanKind::kProject, filter);
  const_cast<PlanNode*>(proj.get())->exprs = {col({"id"}), alias(call("%", {col({"id"}), i64(7)}), "k")};
  auto agg = unary(PlanKind::kAggregate, proj);
  auto* a = const_cast<PlanNode*>(agg.get());
  a->exprs = {col({"k"})};
  a->aggregates = {call("sum", {col({"id"})}), call("count", {star()}), call("avg", {col({"id"})}),
                   call("max", {col({"id"})})};
  auto sort = unary(PlanKind::kSort, agg);
  const_cast<PlanNode*>(sort.get())->exprs = {sort_order(col({"k"}), false, false)};
  auto r = s.execute(sort);
  ASSERT_EQ(r.schema.size(), 5u);
  EXPECT_EQ(r.schema[1].name, "sum(id)");
  EXPECT_EQ(r.schema[2].name, "count(1)");
  EXPECT_EQ(r.schema[3].name, "avg(id)");
  auto keys = column_values(r, 0);
  ASSERT_EQ(keys.size(), 7u);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(keys[i].as_int(), 6 - static_cast<int64_t>(i));
  int64_t total = 0, count = 0;
  for (auto& v : column_values(r, 1)) total += v.as_int();
  for (auto& v : column_values(r, 2)) count += v.as_int();
  EXPECT_EQ(total, 999 * 1000 / 2 - 45);
  EXPECT_EQ(count, 990);
}

TEST(Engine, ManyGroupsMergeInParallelPartitions) {
  // Enough groups that the per-thread tables merge by hash partition, with fixed-width keys
  // (packed) and string keys (bytes); every group appears once with its exact aggregates.
  for (bool string_key : {false, true}) {
    Session s("t");
    const int64_t rows = 1000000, groups = 100000;
    auto proj = unary(PlanKind::kProject, range(0, rows));
    ExprPtr key = call("%", {col({"id"}), i64(groups)});
    if (string_key) key = cast(key, DataType::string());
    const_cast<PlanNode*>(proj.get())->exprs = {col({"id"}), alias(key, "k")};
    auto agg = unary(PlanKind::kAggregate, proj);
    const_cast<PlanNode*>(agg.get())->exprs = {col({"k"})};
    const_cast<PlanNode*>(agg.get())->aggregates = {call("count", {star()}), call("min", {col({"id"})}),
                                                    call("sum", {col({"id"})})};
    auto r = s.execute(agg);
    ASSERT_EQ(r.num_rows(), groups);
    std::vector<Value> counts = column_values(r, 1), mins = column_values(r, 2), sums = column_values(r, 3);
    std::vector<uint8_t> seen(static_cast<size_t>(groups), 0);
    for (size_t i = 0; i < counts.size(); ++i) {
      int64_t g = mins[i].as_int();
      ASSERT_LT(g, groups);
      EXPECT_EQ(seen[static_cast<size_t>(g)]++, 0);
      EXPECT_EQ(counts[i].as_int(), rows / groups);
      // Rows g, g + groups, ...: ten of them.
      EXPECT_EQ(sums[i].as_int(), 10 * g + groups * 45);
    }
  }
}

TEST(Engine, GlobalAggregateOfEmptyInputHasOneRow) {
  Session s("t");
  auto agg = unary(PlanKind::kAggregate, range(0, 0));
  const_cast<PlanNode*>(agg.get())->aggregates = {call("count", {star()}), call("sum", {col({"id"})})};
  auto r = s.execute(agg);
  ASSERT_EQ(r.num_rows(), 1);
  EXPECT_EQ(r.batches[0].columns[0]->value_at(0).as_int(), 0);
  EXPECT_TRUE(r.batches[0].columns[1]->value_at(0).is_null());
}

TEST(Engine, LimitKeepsSourceOrder) {
  Session s("t");
  auto lim = unary(PlanKind::kLimit, range(0, 1000000));
  const_cast<PlanNode*>(lim.get())->limit = 70000;
  auto r = s.execute(lim);
  auto v = column_values(r, 0);
  ASSERT_EQ(v.size(), 70000u);
  EXPECT_EQ(v.back().as_int(), 69999);
}

TEST(Engine, UnknownColumnSuggests) {
  Session s("t");
  auto proj = unary(PlanKind::kProject, range(0, 3));
  const_cast<PlanNode*>(proj.get())->exprs = {col({"idd"})};
  try {
    s.execute(proj);
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNRESOLVED_COLUMN.WITH_SUGGESTION");
    EXPECT_EQ(e.params().at("proposal"), "`id`");
  }
}

TEST(Engine, AnsiOverflowAndDivideByZero) {
  Session s("t");
  auto proj = unary(PlanKind::kProject, range(0, 3));
  const_cast<PlanNode*>(proj.get())->exprs = {call("/", {col({"id"}), i64(0)})};
  EXPECT_THROW(s.execute(proj), SparkError);
  s.config().set("spark.sql.ansi.enabled", "false");
  auto r = s.execute(proj);
  EXPECT_TRUE(r.batches[0].columns[0]->value_at(0).is_null());
}

TEST(Engine, MissingAggregation) {
  Session s("t");
  auto proj = unary(PlanKind::kProject, range(0, 3));
  const_cast<PlanNode*>(proj.get())->exprs = {col({"id"}), alias(call("%", {col({"id"}), i64(2)}), "k")};
  auto agg = unary(PlanKind::kAggregate, proj);
  const_cast<PlanNode*>(agg.get())->exprs = {col({"k"})};
  const_cast<PlanNode*>(agg.get())->aggregates = {col({"id"})};
  try {
    s.execute(agg);
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "MISSING_AGGREGATION");
  }
}

}  // namespace
}  // namespace ember::plan
