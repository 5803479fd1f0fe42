// GPU placement through the session: explain shows GPU operators and fallback reasons as
// spark.rapids.sql.explain asks; spark.rapids.sql.enabled moves a query between the CPU and the
// GPU with equal results. Also the GPU benchmark (GpuBench, run only with EMBER_GPU_BENCH=1).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "gpu/device.h"
#include "gpu/fused_aggregate.h"
#include "gpu/operators.h"
#include "gpu/runtime.h"
#include "plan/physical_planner.h"
#include "plan/session.h"

namespace ember::plan {
namespace {

bool have_gpu() {
  if (gpu::device_info().available) return true;
  const char* expect = std::getenv("EMBER_EXPECT_GPU");
  EXPECT_FALSE(expect != nullptr && std::string(expect) == "1") << gpu::device_info().reason;
  return false;
}

PlanPtr node(PlanKind kind, std::vector<PlanPtr> children = {}) {
  return make_node(kind, std::move(children));
}

PlanPtr range(int64_t start, int64_t end) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRange;
  n->range_start = start;
  n->range_end = end;
  n->range_step = 1;
  return n;
}

PlanPtr project(PlanPtr child, std::vector<ExprPtr> exprs) {
  auto n = node(PlanKind::kProject, {std::move(child)});
  const_cast<PlanNode*>(n.get())->exprs = std::move(exprs);
  return n;
}

ExprPtr i64(int64_t v) { return lit(Value::integer(v), DataType::long_()); }
ExprPtr i32(int64_t v) { return lit(Value::integer(v), DataType::int_()); }

/// spark.range(n).withColumn("v", rand(42)).withColumn("c", (col("id") % 100).cast("int"))
///   .groupBy("c").agg(avg("v"), stddev("v"), count("*"))
PlanPtr headline(int64_t n) {
  auto p1 = project(range(0, n), {col({"id"}), alias(call("rand", {i32(42)}), "v")});
  auto p2 = project(p1, {col({"id"}), col({"v"}),
                         alias(cast(call("%", {col({"id"}), i64(100)}), DataType::int_()), "c")});
  auto agg = node(PlanKind::kAggregate, {p2});
  const_cast<PlanNode*>(agg.get())->exprs = {col({"c"})};
  const_cast<PlanNode*>(agg.get())->aggregates = {
      call("avg", {col({"v"})}), call("stddev", {col({"v"})}), call("count", {star()})};
  return agg;
}

/// A deterministic aggregation over a range, with a filter and nulls.
PlanPtr deterministic(int64_t n) {
  auto x = call("-", {call("%", {call("*", {col({"id"}), i64(7)}), i64(1000)}), i64(500)});
  auto p =
      project(range(0, n), {col({"id"}), alias(x, "x"),
                            alias(cast(call("%", {col({"id"}), i64(13)}), DataType::int_()), "c")});
  auto f = node(PlanKind::kFilter, {p});
  const_cast<PlanNode*>(f.get())->condition = call(">", {col({"x"}), i64(-400)});
  auto agg = node(PlanKind::kAggregate, {f});
  const_cast<PlanNode*>(agg.get())->exprs = {col({"c"})};
  const_cast<PlanNode*>(agg.get())->aggregates = {
      call("sum", {col({"x"})}),  call("avg", {col({"x"})}), call("min", {col({"x"})}),
      call("max", {col({"id"})}), call("count", {star()}),   call("stddev", {col({"x"})})};
  return agg;
}

/// tools/make_sales_csv.py's columns: transaction_id, customer_id, product_id (P001-P005),
/// amount, region (North/South/East/West), transaction_date; with empty (null) amounts, regions
/// and products every few dozen rows.
void write_sales_csv(const std::string& path, int64_t n, uint64_t seed) {
  static const char* kProducts[] = {"P001", "P002", "P003", "P004", "P005"};
  static const char* kRegions[] = {"North", "South", "East", "West"};
  std::ofstream out(path);
  out << "transaction_id,customer_id,product_id,amount,region,transaction_date\n";
  uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  char line[160];
  for (int64_t i = 1; i <= n; ++i) {
    uint64_t r = next();
    int cents = 1000 + static_cast<int>(r % 49001);
    std::string amount = r % 53 == 0
                             ? ""
                             : std::to_string(cents / 100) + "." +
                                   std::to_string(cents % 100 / 10) + std::to_string(cents % 10);
    const char* product = (r >> 20) % 61 == 0 ? "" : kProducts[(r >> 8) % 5];
    const char* region = (r >> 24) % 67 == 0 ? "" : kRegions[(r >> 12) % 4];
    int64_t second = i - 1;
    std::snprintf(line, sizeof line, "%lld,%d,%s,%s,%s,2023-01-%02d %02d:%02d:%02d\n",
                  static_cast<long long>(i), 1 + static_cast<int>((r >> 32) % 10000), product,
                  amount.c_str(), region, 1 + static_cast<int>(second / 86400 % 28),
                  static_cast<int>(second / 3600 % 24), static_cast<int>(second / 60 % 60),
                  static_cast<int>(second % 60));
    out << line;
  }
}

/// The sales table from a CSV file (header, the demo's schema) or, for a path ending in
/// ".parquet", from Parquet (its own schema).
PlanPtr read_sales(const std::string& path) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRead;
  n->read.paths = {path};
  const std::string ext = ".parquet";
  if (path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0) {
    n->read.format = "parquet";
    return n;
  }
  n->read.format = "csv";
  n->read.options.set("header", "true");
  n->read.user_schema = parse_ddl_schema(
      "transaction_id INT, customer_id INT, product_id STRING, amount DOUBLE, region STRING, "
      "transaction_date TIMESTAMP");
  return n;
}

/// The demo's query: [where amount > 100 and customer_id % 2 = 0] .groupBy("region",
///   "product_id").agg(sum("amount"), count("*"), avg("amount")).orderBy("region", "product_id"),
/// with `extra` projections (arithmetic, comparisons, casts, CASE, coalesce, null tests)
/// aggregated too. Without them only the filter reads customer_id, so the filter passes on
/// fewer columns than it reads.
PlanPtr sales_query(const std::string& path, bool filter, bool extra) {
  PlanPtr input = read_sales(path);
  if (filter) {
    auto f = node(PlanKind::kFilter, {input});
    const_cast<PlanNode*>(f.get())->condition =
        call("and", {call(">", {col({"amount"}), i32(100)}),
                     call("==", {call("%", {col({"customer_id"}), i32(2)}), i32(0)})});
    input = f;
  }
  if (extra) {
    auto big = call("when", {call(">", {col({"amount"}), i32(400)}), i32(1), i32(0)});
    input = project(
        input,
        {col({"region"}), col({"product_id"}), col({"amount"}),
         alias(call("*", {col({"amount"}), lit(Value::floating(1.2), DataType::double_())}),
               "gross"),
         alias(big, "big"),
         alias(call("coalesce", {col({"amount"}), lit(Value::floating(-1.0), DataType::double_())}),
               "amount0"),
         alias(call("isnull", {col({"region"})}), "no_region"),
         alias(cast(call("%", {col({"customer_id"}), i32(7)}), DataType::long_()), "c7")});
  }
  auto agg = node(PlanKind::kAggregate, {input});
  const_cast<PlanNode*>(agg.get())->exprs = {col({"region"}), col({"product_id"})};
  std::vector<ExprPtr> aggs = {call("sum", {col({"amount"})}), call("count", {star()}),
                               call("avg", {col({"amount"})})};
  if (extra) {
    aggs.push_back(call("sum", {col({"gross"})}));
    aggs.push_back(call("sum", {col({"big"})}));
    aggs.push_back(call("min", {col({"amount0"})}));
    aggs.push_back(call("count", {call("when", {col({"no_region"}), i32(1)})}));
    aggs.push_back(call("max", {col({"c7"})}));
  }
  const_cast<PlanNode*>(agg.get())->aggregates = aggs;
  auto sort = node(PlanKind::kSort, {agg});
  const_cast<PlanNode*>(sort.get())->exprs = {sort_order(col({"region"}), true, true),
                                              sort_order(col({"product_id"}), true, true)};
  return sort;
}

std::vector<std::vector<Value>> ordered_rows(const QueryResult& r) {
  std::vector<std::vector<Value>> out;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::vector<Value> row;
      for (auto& c : b.columns) row.push_back(c->value_at(i));
      out.push_back(std::move(row));
    }
  return out;
}

/// Equal rows in the same order; doubles to a relative 1e-12 (another summation order).
void expect_same_ordered(const std::vector<std::vector<Value>>& a,
                         const std::vector<std::vector<Value>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t r = 0; r < a.size(); ++r) {
    ASSERT_EQ(a[r].size(), b[r].size());
    for (size_t c = 0; c < a[r].size(); ++c) {
      const Value &x = a[r][c], &y = b[r][c];
      if (x == y) continue;
      ASSERT_FALSE(x.is_null() || y.is_null()) << r << "," << c;
      EXPECT_NEAR(x.as_double(), y.as_double(), 1e-12 * std::fabs(y.as_double())) << r << "," << c;
    }
  }
}

std::vector<std::vector<Value>> rows(const QueryResult& r) {
  std::vector<std::vector<Value>> out;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::vector<Value> row;
      for (auto& c : b.columns) row.push_back(c->value_at(i));
      out.push_back(std::move(row));
    }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a[0].as_int() < b[0].as_int(); });
  return out;
}

TEST(GpuPlacement, ExplainReportsPlacement) {
  Session s("t");
  s.config().set("spark.ember.gpu.minRows", "0");
  std::string text = s.explain(headline(1000), ExplainMode::kSimple);
  if (!gpu::device_info().available) {
    EXPECT_EQ(text.find("GpuHashAggregate"), std::string::npos) << text;
    // NOT_ON_GPU: the reason once, for the plan's root.
    EXPECT_NE(text.find("!Exec <Project> and every operator under it cannot run on GPU because " +
                        gpu::Runtime::unavailable_reason()),
              std::string::npos)
        << text;
    EXPECT_EQ(text.find("!Exec <HashAggregate>"), std::string::npos) << text;
  } else {
    EXPECT_NE(text.find("GpuHashAggregate"), std::string::npos) << text;
    EXPECT_NE(text.find("GpuProject"), std::string::npos) << text;
    EXPECT_NE(text.find("GpuRange"), std::string::npos) << text;
    EXPECT_EQ(text.find("*Exec"), std::string::npos) << text;  // NOT_ON_GPU lists only the CPU ones
    s.config().set("spark.rapids.sql.explain", "ALL");
    text = s.explain(headline(1000), ExplainMode::kSimple);
    EXPECT_NE(text.find("*Exec <HashAggregate> will run on GPU"), std::string::npos) << text;
    EXPECT_NE(text.find("*Exec <Range> will run on GPU (fused into the HashAggregate above)"),
              std::string::npos)
        << text;
  }
  s.config().set("spark.rapids.sql.explain", "NONE");
  text = s.explain(headline(1000), ExplainMode::kSimple);
  EXPECT_EQ(text.find("Exec <"), std::string::npos) << text;
  s.config().set("spark.rapids.sql.explain", "NOT_ON_GPU");
  s.config().set("spark.rapids.sql.enabled", "false");
  text = s.explain(headline(1000), ExplainMode::kSimple);
  EXPECT_EQ(text.find("Gpu"), std::string::npos) << text;
  EXPECT_EQ(text.find("Exec <"), std::string::npos) << text;
}

TEST(GpuPlacement, ExplainsWhyAnOperatorStaysOnTheCpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  Session s("t");
  // Too small by default.
  std::string text = s.explain(headline(1000), ExplainMode::kSimple);
  EXPECT_NE(
      text.find(
          "!Exec <HashAggregate> cannot run on GPU because the input has 1000 rows, fewer than "
          "spark.ember.gpu.minRows (100000)"),
      std::string::npos)
      << text;
  s.config().set("spark.ember.gpu.minRows", "0");
  // A type the GPU does not handle.
  auto p = project(range(0, 10), {alias(cast(col({"id"}), DataType::string()), "s")});
  auto agg = node(PlanKind::kAggregate, {p});
  const_cast<PlanNode*>(agg.get())->aggregates = {call("count", {col({"s"})})};
  text = s.explain(agg, ExplainMode::kSimple);
  EXPECT_NE(text.find("!Exec <HashAggregate> cannot run on GPU because cast from bigint to string "
                      "is not supported"),
            std::string::npos)
      << text;
  // The final projection over the aggregate stays on the CPU, and says why.
  text = s.explain(headline(1000), ExplainMode::kSimple);
  EXPECT_NE(text.find("!Exec <Project> cannot run on GPU because"), std::string::npos) << text;
}

TEST(GpuPlacement, TogglingRapidsMovesThePlanWithEqualResults) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  Session s("t");
  s.config().set("spark.ember.gpu.minRows", "0");
  for (int round = 0; round < 2; ++round) {
    s.config().set("spark.rapids.sql.enabled", "true");
    EXPECT_NE(s.explain(deterministic(300000), ExplainMode::kSimple).find("GpuHashAggregate"),
              std::string::npos);
    auto gpu_rows = rows(s.execute(deterministic(300000)));
    s.config().set("spark.rapids.sql.enabled", "false");
    EXPECT_EQ(s.explain(deterministic(300000), ExplainMode::kSimple).find("Gpu"),
              std::string::npos);
    auto cpu_rows = rows(s.execute(deterministic(300000)));
    ASSERT_EQ(gpu_rows.size(), 13u);
    ASSERT_EQ(gpu_rows.size(), cpu_rows.size());
    for (size_t r = 0; r < gpu_rows.size(); ++r) {
      for (size_t c = 0; c < gpu_rows[r].size(); ++c) {
        const Value &g = gpu_rows[r][c], &x = cpu_rows[r][c];
        if (c == 2 || c == 6)
          EXPECT_NEAR(g.as_double(), x.as_double(), 1e-9 * std::fabs(x.as_double()) + 1e-12);
        else
          EXPECT_TRUE(g == x) << r << "," << c;
      }
    }
  }
}

TEST(GpuPlacement, SalesCsvAggregatesOnTheGpuWithEqualResults) {
  std::string path = ::testing::TempDir() + "ember_gpu_sales.csv";
  write_sales_csv(path, 200000, 7);
  Session s("t");
  s.config().set("spark.rapids.sql.explain", "ALL");
  for (bool filter : {false, true}) {
    for (bool extra : {false, true}) {
      SCOPED_TRACE(std::string(filter ? "filter " : "") + (extra ? "projections" : ""));
      PlanPtr q = sales_query(path, filter, extra);
      s.config().set("spark.rapids.sql.enabled", "true");
      std::string text = s.explain(q, ExplainMode::kSimple);
      if (gpu::device_info().available) {
        EXPECT_NE(text.find("GpuHashAggregate"), std::string::npos) << text;
        if (filter) EXPECT_NE(text.find("GpuFilter"), std::string::npos) << text;
        if (extra) EXPECT_NE(text.find("GpuProject"), std::string::npos) << text;
        EXPECT_NE(text.find("*Exec <HashAggregate> will run on GPU"), std::string::npos) << text;
        EXPECT_NE(text.find("!Exec <FileScan> cannot run on GPU because"), std::string::npos)
            << text;
        // The final sort is by the string keys, which the GPU sort does not order.
        EXPECT_NE(text.find("!Exec <Sort> cannot run on GPU because sorting by type string is not "
                            "supported"),
                  std::string::npos)
            << text;
      } else {
        EXPECT_EQ(text.find("Gpu"), std::string::npos) << text;
        // spark.rapids.sql.explain=ALL: every operator with the reason.
        EXPECT_NE(text.find("!Exec <HashAggregate> cannot run on GPU because " +
                            gpu::Runtime::unavailable_reason()),
                  std::string::npos)
            << text;
      }
      auto on = ordered_rows(s.execute(q));
      if (gpu::device_info().available) {
        // RAPIDS' per-operator switches: the aggregate, or an operator it would fuse, off.
        for (const char* exec : {"HashAggregateExec", "FilterExec"}) {
          if (std::string(exec) == "FilterExec" && !filter) continue;
          const std::string key = std::string("spark.rapids.sql.exec.") + exec;
          s.config().set(key, "false");
          std::string off_text = s.explain(q, ExplainMode::kSimple);
          EXPECT_EQ(off_text.find("GpuHashAggregate"), std::string::npos) << off_text;
          EXPECT_NE(off_text.find("!Exec <HashAggregate> cannot run on GPU because " +
                                  std::string(exec) + " has been disabled. Set " + key +
                                  " to true if you wish to enable it"),
                    std::string::npos)
              << off_text;
          expect_same_ordered(ordered_rows(s.execute(q)), on);
          s.config().set(key, "true");
        }
      }
      s.config().set("spark.rapids.sql.enabled", "false");
      EXPECT_EQ(s.explain(q, ExplainMode::kSimple).find("Gpu"), std::string::npos);
      auto off = ordered_rows(s.execute(q));
      // 4 regions and null × 5 products and null.
      EXPECT_EQ(off.size(), 30u);
      expect_same_ordered(on, off);
    }
  }
  std::remove(path.c_str());
}

TEST(GpuPlacement, SortsOnTheGpuWithEqualResults) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  Session s("t");
  auto k = call("%", {call("*", {col({"id"}), i64(7919)}), i64(1000)});
  auto p = project(range(0, 300000), {col({"id"}), alias(k, "k"),
                                      alias(cast(col({"id"}), DataType::double_()), "d")});
  auto sort = node(PlanKind::kSort, {p});
  const_cast<PlanNode*>(sort.get())->exprs = {sort_order(col({"k"}), false, true),
                                              sort_order(col({"d"}), true, true)};
  auto limited = node(PlanKind::kLimit, {sort});
  const_cast<PlanNode*>(limited.get())->limit = 5000;
  s.config().set("spark.rapids.sql.explain", "ALL");
  for (const PlanPtr& q : {sort, limited}) {
    s.config().set("spark.rapids.sql.enabled", "true");
    std::string text = s.explain(q, ExplainMode::kSimple);
    EXPECT_NE(text.find(q == sort ? "GpuSort" : "GpuTakeOrderedAndProject"), std::string::npos)
        << text;
    auto on = ordered_rows(s.execute(q));
    s.config().set("spark.rapids.sql.enabled", "false");
    auto off = ordered_rows(s.execute(q));
    ASSERT_EQ(on.size(), q == sort ? 300000u : 5000u);
    expect_same_ordered(on, off);
  }
}

TEST(GpuPlacement, HeadlineQueryRunsOnTheGpu) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  Session s("t");
  auto r = s.execute(headline(1000000));
  ASSERT_EQ(r.schema.size(), 4u);
  EXPECT_EQ(r.schema[1].name, "avg(v)");
  EXPECT_EQ(r.schema[2].name, "stddev(v)");
  EXPECT_EQ(r.schema[3].name, "count(1)");
  auto out = rows(r);
  ASSERT_EQ(out.size(), 100u);
  for (auto& row : out) {
    EXPECT_EQ(row[3].as_int(), 10000);
    EXPECT_NEAR(row[1].as_double(), 0.5, 0.02);
    EXPECT_NEAR(row[2].as_double(), std::sqrt(1.0 / 12), 0.01);
  }
}

/// Rows as text, sorted: joins without an ordering compare as multisets.
std::vector<std::string> sorted_text_rows(const QueryResult& r) {
  std::vector<std::string> out;
  for (auto& b : r.batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::string row;
      for (auto& c : b.columns) {
        Value v = c->value_at(i);
        if (v.is_null())
          row += "null";
        else if (c->type()->is_floating())
          row += std::to_string(v.as_double());
        else if (c->type()->is_string_like())
          row += v.as_bytes();
        else
          row += std::to_string(v.as_int());
        row += "|";
      }
      out.push_back(std::move(row));
    }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GpuPlacement, HashJoinsProbeOnTheGpuWithEqualResults) {
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  Session s("t");
  s.config().set("spark.ember.gpu.joinMinBuildRows", "100000");
  s.config().set("spark.rapids.sql.explain", "ALL");
  // Fact keys hit the dimension with duplicates, miss it, and are null every 97th row; the
  // second fact's keys all hit.
  auto fk = call("%", {call("*", {col({"id"}), i64(7919)}), i64(330000)});
  auto fact = project(range(0, 600000),
                      {alias(col({"id"}), "f"),
                       alias(call("when", {call("=", {call("%", {col({"id"}), i64(97)}), i64(0)}),
                                           lit(Value(), DataType::long_()), fk}),
                             "fk")});
  auto fact_hits =
      project(range(0, 600000),
              {alias(col({"id"}), "f"),
               alias(call("%", {call("*", {col({"id"}), i64(7919)}), i64(300000)}), "fk")});
  // The dimension's columns: gathered on the device (long, double, int with nulls) and on the
  // host (string).
  auto dim =
      project(range(0, 300000),
              {alias(col({"id"}), "dk"), alias(call("*", {col({"id"}), i64(2)}), "w"),
               alias(cast(col({"id"}), DataType::double_()), "d"),
               alias(call("when", {call("=", {call("%", {col({"id"}), i64(5)}), i64(0)}),
                                   lit(Value(), DataType::int_()),
                                   cast(call("%", {col({"id"}), i64(1000)}), DataType::int_())}),
                     "i"),
               alias(cast(col({"id"}), DataType::string()), "s")});
  for (const PlanPtr& probe : {fact, fact_hits})
    for (JoinType type : {JoinType::kInner, JoinType::kLeftOuter, JoinType::kRightOuter,
                          JoinType::kLeftSemi, JoinType::kLeftAnti, JoinType::kFullOuter}) {
      SCOPED_TRACE(join_type_name(type));
      SCOPED_TRACE(probe == fact ? "fact" : "fact, every key hits");
      auto j = node(PlanKind::kJoin, {probe, dim});
      const_cast<PlanNode*>(j.get())->join_type = type;
      const_cast<PlanNode*>(j.get())->condition = call("=", {col({"fk"}), col({"dk"})});
      s.config().set("spark.rapids.sql.enabled", "true");
      std::string text = s.explain(j, ExplainMode::kSimple);
      EXPECT_NE(text.find("GpuBroadcastHashJoin"), std::string::npos) << text;
      EXPECT_NE(text.find("*Exec <BroadcastHashJoin> will run on GPU"), std::string::npos) << text;
      auto on = sorted_text_rows(s.execute(j));
      s.config().set("spark.rapids.sql.enabled", "false");
      auto off = sorted_text_rows(s.execute(j));
      // An anti join of keys that all hit is empty.
      if (probe == fact || type != JoinType::kLeftAnti) ASSERT_GT(off.size(), 0u);
      EXPECT_EQ(on, off);
    }
  // A string key stays on the CPU, and says why.
  auto j = node(PlanKind::kJoin, {fact, dim});
  const_cast<PlanNode*>(j.get())->condition =
      call("=", {cast(col({"fk"}), DataType::string()), cast(col({"dk"}), DataType::string())});
  s.config().set("spark.rapids.sql.enabled", "true");
  std::string text = s.explain(j, ExplainMode::kSimple);
  EXPECT_NE(text.find("!Exec <BroadcastHashJoin> cannot run on GPU because join keys of type "
                      "string are not supported"),
            std::string::npos)
      << text;
}

// ---- Benchmark ---------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename F>
double time_ms(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// EMBER_GPU_BENCH=1 [EMBER_GPU_BENCH_ROWS=100000000] [EMBER_GPU_BENCH_OUT=file.json]
TEST(GpuBench, RangeRandAggregate) {
  const char* on = std::getenv("EMBER_GPU_BENCH");
  if (on == nullptr || std::string(on) != "1")
    GTEST_SKIP() << "set EMBER_GPU_BENCH=1 to run the GPU benchmark";
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  int64_t n = 100000000;
  if (const char* r = std::getenv("EMBER_GPU_BENCH_ROWS")) n = std::atoll(r);
  Session s("bench");
  PlanPtr q = headline(n);
  // GPU: end to end through the session (analysis, planning, kernel, results).
  std::vector<double> gpu_ms;
  for (int i = 0; i < 12; ++i) {
    double t = time_ms([&] { s.execute(q); });
    if (i >= 2) gpu_ms.push_back(t);
  }
  // The kernel alone, from the GPU operator's own timing.
  PhysicalPlan physical = create_physical_plan(s.optimize(s.analyze(q)), s);
  auto* agg = dynamic_cast<gpu::GpuHashAggregate*>(physical.root->children[0].get());
  ASSERT_NE(agg, nullptr) << exec::physical_tree_string(*physical.root);
  std::vector<double> kernel_ms, operator_ms;
  MemoryPool pool("bench", MemoryPool::root());
  exec::ExecContext ctx;
  ctx.eval.config = &s.config();
  ctx.pool = &pool;
  for (int i = 0; i < 12; ++i) {
    exec::run_plan(*physical.root, ctx);
    ASSERT_TRUE(agg->last_run().on_gpu) << agg->last_run().fallback_reason;
    if (i >= 2) {
      kernel_ms.push_back(agg->last_run().kernel_ms);
      operator_ms.push_back(agg->last_run().total_ms);
    }
  }
  // The same kernel without the per-block tables: every row updates the global table.
  setenv("EMBER_GPU_BLOCK_TABLE", "0", 1);
  std::vector<double> global_ms;
  for (int i = 0; i < 6; ++i) {
    exec::run_plan(*physical.root, ctx);
    if (i >= 1) global_ms.push_back(agg->last_run().kernel_ms);
  }
  unsetenv("EMBER_GPU_BLOCK_TABLE");
  // CPU: the same session and binary with the GPU off.
  s.config().set("spark.rapids.sql.enabled", "false");
  std::vector<double> cpu_ms;
  for (int i = 0; i < 4; ++i) {
    double t = time_ms([&] { s.execute(q); });
    if (i >= 1) cpu_ms.push_back(t);
  }
  gpu::Runtime* rt = gpu::Runtime::get(gpu::read_settings(s.config()));
  double copy = gpu::measure_copy_bandwidth(size_t{2} << 30, 20, *rt);
  // A kernel that materialized id (8 bytes), v (8) and c (4) per row would move this much; the
  // fused kernel reads and writes none of it, so this is an equivalent rate, not traffic.
  double equivalent = 20.0 * static_cast<double>(n) / (median(kernel_ms) * 1e-3);
  const gpu::DeviceInfo& info = gpu::device_info();
  char json[1024];
  std::snprintf(
      json, sizeof json,
      "{\"device\": \"%s\", \"rows\": %lld, \"gpu_query_ms\": %.3f, \"gpu_operator_ms\": %.3f, "
      "\"gpu_kernel_ms\": %.3f, \"gpu_kernel_global_table_ms\": %.3f, \"cpu_query_ms\": %.3f, "
      "\"speedup\": %.1f, \"copy_bandwidth_gbs\": %.1f, "
      "\"equivalent_bandwidth_gbs\": %.1f, \"cpu_threads\": %u}",
      info.name.c_str(), static_cast<long long>(n), median(gpu_ms), median(operator_ms),
      median(kernel_ms), median(global_ms), median(cpu_ms), median(cpu_ms) / median(gpu_ms),
      copy / 1e9, equivalent / 1e9, std::thread::hardware_concurrency());
  std::printf("GPU_BENCH %s\n", json);
  if (const char* path = std::getenv("EMBER_GPU_BENCH_OUT")) std::ofstream(path) << json << "\n";
}

/// The GPU aggregate in a physical plan (under the sort and the final projection).
gpu::GpuHashAggregate* find_gpu_aggregate(exec::PhysicalOperator* op) {
  if (auto* g = dynamic_cast<gpu::GpuHashAggregate*>(op)) return g;
  for (auto& c : op->children)
    if (auto* g = find_gpu_aggregate(c.get())) return g;
  return nullptr;
}

// EMBER_GPU_BENCH=1 [EMBER_GPU_BENCH_SALES=sales.csv] [EMBER_GPU_BENCH_SALES_ROWS=10000000]
// [EMBER_GPU_BENCH_SALES_PARQUET=sales.parquet] [EMBER_GPU_BENCH_SALES_OUT=file.json]
// [EMBER_GPU_BENCH_CONF="key=value;key=value"]: the demo's sales aggregation from CSV (and from
// the same rows in Parquet when given), GPU against CPU, under the session settings given.
TEST(GpuBench, SalesAggregate) {
  const char* on = std::getenv("EMBER_GPU_BENCH");
  if (on == nullptr || std::string(on) != "1")
    GTEST_SKIP() << "set EMBER_GPU_BENCH=1 to run the GPU benchmark";
  if (!have_gpu()) GTEST_SKIP() << "no usable GPU";
  std::string path;
  if (const char* p = std::getenv("EMBER_GPU_BENCH_SALES")) {
    path = p;
  } else {
    int64_t n = 10000000;
    if (const char* r = std::getenv("EMBER_GPU_BENCH_SALES_ROWS")) n = std::atoll(r);
    path = ::testing::TempDir() + "ember_gpu_bench_sales.csv";
    write_sales_csv(path, n, 42);
  }
  std::vector<std::string> inputs = {path};
  if (const char* p = std::getenv("EMBER_GPU_BENCH_SALES_PARQUET")) inputs.push_back(p);
  Session s("bench");
  std::string conf_text;
  if (const char* c = std::getenv("EMBER_GPU_BENCH_CONF")) conf_text = c;
  for (size_t at = 0; at < conf_text.size();) {
    size_t end = conf_text.find(';', at);
    if (end == std::string::npos) end = conf_text.size();
    std::string item = conf_text.substr(at, end - at);
    size_t eq = item.find('=');
    if (eq != std::string::npos) s.config().set(item.substr(0, eq), item.substr(eq + 1));
    at = end + 1;
  }
  gpu::Runtime* rt = gpu::Runtime::get(gpu::read_settings(s.config()));
  ASSERT_NE(rt, nullptr);
  double copy = gpu::measure_copy_bandwidth(size_t{2} << 30, 20, *rt);
  double upload = gpu::measure_upload_bandwidth(size_t{1} << 30, 10, *rt);
  std::string json = "[";
  for (const std::string& input : inputs)
  for (bool filter : {false, true}) {
    std::ifstream file(input, std::ios::binary | std::ios::ate);
    double file_bytes = static_cast<double>(file.tellg());
    const bool parquet = input != path;
    PlanPtr q = sales_query(input, filter, false);
    s.config().set("spark.rapids.sql.enabled", "true");
    std::vector<double> gpu_ms;
    std::vector<std::vector<Value>> gpu_rows, cpu_rows;
    for (int i = 0; i < 6; ++i) {
      double t = time_ms([&] { gpu_rows = ordered_rows(s.execute(q)); });
      if (i >= 1) gpu_ms.push_back(t);
    }
    // The GPU operator's own numbers: kernels, bytes copied in, its wall time.
    PhysicalPlan physical = create_physical_plan(s.optimize(s.analyze(q)), s);
    gpu::GpuHashAggregate* agg = find_gpu_aggregate(physical.root.get());
    ASSERT_NE(agg, nullptr) << exec::physical_tree_string(*physical.root);
    MemoryPool pool("bench", MemoryPool::root());
    exec::ExecContext ctx;
    ctx.eval.config = &s.config();
    ctx.pool = &pool;
    std::vector<double> kernel_ms, operator_ms;
    for (int i = 0; i < 3; ++i) {
      exec::run_plan(*physical.root, ctx);
      EXPECT_TRUE(agg->last_run().on_gpu) << input << ": " << agg->last_run().fallback_reason;
      kernel_ms.push_back(agg->last_run().kernel_ms);
      operator_ms.push_back(agg->last_run().total_ms);
    }
    const gpu::GpuRunStats& st = agg->last_run();
    s.config().set("spark.rapids.sql.enabled", "false");
    std::vector<double> cpu_ms;
    for (int i = 0; i < 4; ++i) {
      double t = time_ms([&] { cpu_rows = ordered_rows(s.execute(q)); });
      if (i >= 1) cpu_ms.push_back(t);
    }
    expect_same_ordered(gpu_rows, cpu_rows);
    double gq = median(gpu_ms), cq = median(cpu_ms);
    char line[1536];
    std::snprintf(
        line, sizeof line,
        "{\"device\": \"%s\", \"query\": \"sales%s\", \"format\": \"%s\", \"file_bytes\": %.0f, "
        "\"groups\": %lld, "
        "\"gpu_query_ms\": %.1f, \"cpu_query_ms\": %.1f, \"speedup\": %.2f, "
        "\"gpu_operator_ms\": %.1f, \"gpu_kernels_ms\": %.2f, \"kernels\": %d, "
        "\"uploaded_bytes\": %lld, \"file_gbs_gpu\": %.2f, \"file_gbs_cpu\": %.2f, "
        "\"upload_gbs_over_query\": %.2f, \"upload_ceiling_gbs\": %.1f, "
        "\"copy_ceiling_gbs\": %.1f, \"cpu_threads\": %u, \"conf\": \"%s\"}",
        gpu::device_info().name.c_str(), filter ? "+filter" : "", parquet ? "parquet" : "csv",
        file_bytes,
        static_cast<long long>(st.groups), gq, cq, cq / gq, median(operator_ms), median(kernel_ms),
        st.attempts, static_cast<long long>(st.uploaded_bytes), file_bytes / (gq * 1e-3) / 1e9,
        file_bytes / (cq * 1e-3) / 1e9, static_cast<double>(st.uploaded_bytes) / (gq * 1e-3) / 1e9,
        upload / 1e9, copy / 1e9, std::thread::hardware_concurrency(), conf_text.c_str());
    std::printf("GPU_BENCH %s\n", line);
    json += std::string(json.size() > 1 ? ", " : "") + line;
  }
  json += "]";
  if (const char* out = std::getenv("EMBER_GPU_BENCH_SALES_OUT"))
    std::ofstream(out) << json << "\n";
  if (std::getenv("EMBER_GPU_BENCH_SALES") == nullptr) std::remove(path.c_str());
}

}  // namespace
}  // namespace ember::plan
