// The session cache: cached plans are computed once, read by every query that contains them,
// accounted, and dropped on uncache.

#include <gtest/gtest.h>

#include "common/error.h"
#include "plan/cache_manager.h"
#include "plan/session.h"

namespace ember::plan {
namespace {

PlanPtr range(int64_t start, int64_t end) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRange;
  n->range_start = start;
  n->range_end = end;
  return n;
}

PlanPtr unary(PlanKind kind, PlanPtr child, std::vector<ExprPtr> exprs = {}, ExprPtr condition = nullptr) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = {std::move(child)};
  n->exprs = std::move(exprs);
  n->condition = std::move(condition);
  return n;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }

/// range(0, n) with a seeded random column `r`, built afresh (new nodes) on every call, as a
/// client sends the same DataFrame again.
PlanPtr random_rows(int64_t n) {
  return unary(PlanKind::kProject, range(0, n), {col({"id"}), alias(call("rand", {i64(7)}), "r")});
}

std::vector<Value> column_values(const QueryResult& r, size_t c) {
  std::vector<Value> out;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) out.push_back(b.columns[c]->value_at(i));
  return out;
}

int64_t memory_of(const QueryResult& r) {
  int64_t bytes = 0;
  for (auto& b : r.batches) bytes += b.memory_size();
  return bytes;
}

TEST(CacheManager, ComputesOnceAndServesEveryQueryThatContainsThePlan) {
  Session s("t");
  auto entry = s.cache_manager().cache(s.analyze(random_rows(200000)), StorageLevel::memory_and_disk());
  EXPECT_EQ(entry->batches->materializations(), 0);  // lazy
  EXPECT_EQ(s.cache_manager().memory_bytes(), 0);

  QueryResult first = s.execute(random_rows(200000));
  EXPECT_EQ(entry->batches->materializations(), 1);
  QueryResult again = s.execute(random_rows(200000));
  auto filtered = unary(PlanKind::kFilter, random_rows(200000), {}, call("<", {col({"id"}), i64(10)}));
  QueryResult part = s.execute(unary(PlanKind::kProject, filtered, {col({"r"})}));
  EXPECT_EQ(entry->batches->materializations(), 1);

  EXPECT_EQ(column_values(first, 1), column_values(again, 1));
  auto r = column_values(first, 1);
  EXPECT_EQ(column_values(part, 0), std::vector<Value>(r.begin(), r.begin() + 10));

  // The accounting is what the batches hold: the first result shares the cached columns.
  EXPECT_GT(s.cache_manager().memory_bytes(), 0);
  EXPECT_EQ(s.cache_manager().memory_bytes(), memory_of(first));

  EXPECT_TRUE(s.cache_manager().uncache(s.analyze(random_rows(200000)), false));
  EXPECT_EQ(s.cache_manager().size(), 0u);
  EXPECT_EQ(s.cache_manager().memory_bytes(), 0);
  EXPECT_EQ(s.cache_manager().lookup(s.analyze(random_rows(200000))), nullptr);
}

TEST(CacheManager, OtherPlansAreNotServed) {
  Session s("t");
  auto entry = s.cache_manager().cache(s.analyze(random_rows(100)), StorageLevel::memory_and_disk());
  s.execute(random_rows(101));
  auto other_seed = unary(PlanKind::kProject, range(0, 100), {col({"id"}), alias(call("rand", {i64(8)}), "r")});
  s.execute(other_seed);
  EXPECT_EQ(entry->batches->materializations(), 0);
  EXPECT_EQ(s.cache_manager().lookup(s.analyze(other_seed)), nullptr);
  EXPECT_NE(s.cache_manager().lookup(s.analyze(random_rows(100))), nullptr);
}

TEST(CacheManager, NestedEntriesReadTheInnerEntry) {
  Session s("t");
  auto inner = s.cache_manager().cache(s.analyze(random_rows(1000)), StorageLevel::memory_and_disk());
  auto filtered = [] { return unary(PlanKind::kFilter, random_rows(1000), {}, call(">", {col({"r"}), lit(Value::floating(0.5), DataType::double_())})); };
  auto outer = s.cache_manager().cache(s.analyze(filtered()), StorageLevel::memory_and_disk());
  QueryResult all = s.execute(random_rows(1000));
  QueryResult half = s.execute(filtered());
  s.execute(filtered());
  EXPECT_EQ(inner->batches->materializations(), 1);
  EXPECT_EQ(outer->batches->materializations(), 1);
  int64_t expected = 0;
  for (const Value& v : column_values(all, 1)) expected += v.as_double() > 0.5;
  EXPECT_EQ(half.num_rows(), expected);

  // Uncaching the inner plan alone keeps the outer one; with cascade both go.
  EXPECT_TRUE(s.cache_manager().uncache(s.analyze(random_rows(1000)), false));
  EXPECT_EQ(s.cache_manager().size(), 1u);
  s.cache_manager().cache(s.analyze(random_rows(1000)), StorageLevel::memory_and_disk());
  EXPECT_TRUE(s.cache_manager().uncache(s.analyze(random_rows(1000)), true));
  EXPECT_EQ(s.cache_manager().size(), 0u);
}

TEST(CacheManager, ExplainShowsTheInMemoryRelation) {
  Session s("t");
  StorageLevel level = StorageLevel::from_name("memory_only");
  s.cache_manager().cache(s.analyze(random_rows(10)), level);
  std::string text = s.explain(random_rows(10), ExplainMode::kExtended);
  EXPECT_NE(text.find("InMemoryTableScan ["), std::string::npos) << text;
  EXPECT_NE(text.find("InMemoryRelation [id#"), std::string::npos) << text;
  EXPECT_NE(text.find("StorageLevel(memory, deserialized, 1 replicas)"), std::string::npos) << text;
  // Explaining computes nothing.
  EXPECT_EQ(s.cache_manager().lookup(s.analyze(random_rows(10)))->batches->materializations(), 0);
}

TEST(CacheManager, ViewsUncacheWhenReplacedOrDropped) {
  Session s("t");
  s.catalog().create_temp_view("v", s.analyze(random_rows(10)), false);
  s.cache_manager().cache(s.analyze(random_rows(10)), StorageLevel::memory_and_disk());
  s.catalog().create_temp_view("v", s.catalog().lookup_temp_view("v"), true);  // same plan
  EXPECT_EQ(s.cache_manager().size(), 1u);
  s.catalog().drop_temp_view("v");
  EXPECT_EQ(s.cache_manager().size(), 0u);
}

TEST(StorageLevel, NamesAndText) {
  EXPECT_EQ(StorageLevel::memory_and_disk().to_string(), "StorageLevel(disk, memory, deserialized, 1 replicas)");
  EXPECT_EQ(StorageLevel::from_name("DISK_ONLY_2").to_string(), "StorageLevel(disk, 2 replicas)");
  EXPECT_EQ(StorageLevel::from_name("off_heap").to_string(), "StorageLevel(disk, memory, offheap, 1 replicas)");
  EXPECT_EQ(StorageLevel::from_name("NONE").to_string(), "StorageLevel(1 replicas)");
  EXPECT_EQ(StorageLevel::from_name("MEMORY_AND_DISK"), StorageLevel::memory_and_disk());
  try {
    StorageLevel::from_name("sometimes");
    FAIL() << "an unknown level is an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(std::string(e.what()).find("Invalid StorageLevel: SOMETIMES") != std::string::npos, true) << e.what();
  }
}

}  // namespace
}  // namespace ember::plan
