// The fused GPU aggregation against the CPU engine: the same range → filter/project →
// aggregate, run by GpuHashAggregate and by the CPU operators, on expressions with nulls, edge
// values, every supported type and aggregate, from empty input to many batches and many groups.
// Skipped without a GPU.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <random>

#include "functions/rand.h"
#include "gpu/error.h"
#include "gpu/operators.h"
#include "gpu/runtime.h"
#include "gpu_test_util.h"

namespace ember::gpu {
namespace {

using namespace test_util;
using Step = FusedAggregatePlan::Step;

exec::OperatorPtr cpu_tree(const FusedAggregatePlan& p) {
  exec::OperatorPtr cur = std::make_unique<exec::RangeScan>(p.start, p.end, p.step, p.partitions);
  for (auto& s : p.steps) {
    exec::OperatorPtr op;
    if (s.filter)
      op = std::make_unique<exec::Filter>(s.exprs[0]);
    else
      op = std::make_unique<exec::Project>(s.exprs);
    op->children.push_back(std::move(cur));
    cur = std::move(op);
  }
  auto agg = std::make_unique<exec::HashAggregate>(p.keys, p.calls);
  agg->children.push_back(std::move(cur));
  return agg;
}

std::vector<Batch> run(exec::PhysicalOperator& root, const Config& conf) {
  MemoryPool pool("test", MemoryPool::root());
  exec::ExecContext ctx;
  ctx.eval.ansi = conf.ansi_enabled();
  ctx.eval.config = &conf;
  ctx.pool = &pool;
  return exec::run_plan(root, ctx);
}

Config config(bool ansi) {
  Config c;
  c.set("spark.sql.ansi.enabled", ansi ? "true" : "false");
  return c;
}

/// Runs `plan` on the GPU and on the CPU and compares; returns the GPU run's statistics.
GpuRunStats compare(const FusedAggregatePlan& plan, const Config& conf, double tolerance = 1e-9) {
  GpuHashAggregate gpu(plan, cpu_tree(plan), read_settings(conf), conf.ansi_enabled(), false);
  std::vector<Batch> g = run(gpu, conf);
  EXPECT_TRUE(gpu.last_run().on_gpu) << gpu.last_run().fallback_reason;
  auto cpu = cpu_tree(plan);
  std::vector<Batch> c = run(*cpu, conf);
  expect_same_rows(g, c, tolerance);
  return gpu.last_run();
}

TypePtr L() { return DataType::long_(); }
TypePtr D() { return DataType::double_(); }

/// A nullable bigint spread over [-1000, 1000] with nulls on every 7th row.
PhysExprPtr noisy(const PhysExprPtr& id) {
  auto spread = call("-", {call("%", {call("*", {id, i64(2654435761LL)}), i64(2001)}), i64(1000)});
  return if_(call("==", {call("%", {id, i64(7)}), i64(0)}), null_of(L()), spread);
}

/// range → project(id, x, y, z, f, b) → filter → aggregate by id % 37 over everything.
FusedAggregatePlan wide_plan(int64_t start, int64_t end, bool ansi) {
  FusedAggregatePlan p;
  p.start = start;
  p.end = end;
  auto id = column(0, L(), false);
  Step s1;
  s1.exprs = {
      id,
      noisy(id),                                    // 1 x: bigint with nulls
      cast(noisy(id), DataType::int_()),            // 2 y: int
      call("/", {cast(noisy(id), D()), f64(7.0)}),  // 3 z: double
      cast(call("*", {cast(noisy(id), DataType::float_()),
                      literal(Value::floating(1.5), DataType::float_())}),
           DataType::float_()),                                  // 4 f: float
      cast(call("%", {id, i64(300)}), DataType::byte(), ansi)};  // 5 b: tinyint (wraps / try_cast)
  p.steps.push_back(s1);
  Step f;
  f.filter = true;
  f.exprs = {
      call("or", {call(">", {column(1, L()), i64(-900)}), call("isnull", {column(1, L())})})};
  p.steps.push_back(f);
  auto x = column(1, L()), y = column(2, DataType::int_()), z = column(3, D()),
       fl = column(4, DataType::float_()), b = column(5, DataType::byte());
  p.keys = {cast(call("%", {column(0, L(), false), i64(37)}), DataType::int_())};
  p.calls = {aggregate("count", {i32(1)}),
             aggregate("count", {x}),
             aggregate("sum", {x}),
             aggregate("sum", {y}),
             aggregate("avg", {z}),
             aggregate("sum", {z}),
             aggregate("min", {x}),
             aggregate("max", {x}),
             aggregate("min", {z}),
             aggregate("max", {z}),
             aggregate("min", {b}),
             aggregate("max", {b}),
             aggregate("min", {fl}),
             aggregate("max", {fl}),
             aggregate("sum", {fl}),
             aggregate("stddev", {z}),
             aggregate("var_pop", {x}),
             aggregate("stddev_pop", {y}),
             aggregate("variance", {x}),
             aggregate("var_samp", {fl}),
             aggregate("count", {x}, call(">", {x, i64(0)})),
             aggregate("sum", {y}, call("isnotnull", {z}))};
  return p;
}

// Compiling needs no device: every plan these tests run fits the program's limits.
TEST(GpuHashAggregate, CompilesTheTestedPlans) {
  for (bool ansi : {true, false}) {
    CompiledAggregate c(wide_plan(0, 10, ansi), ansi, false);
    EXPECT_LE(c.program.registers, kMaxRegisters);
    std::printf("wide plan: %zu instructions, %d registers, %zu accumulators, %d slots\n",
                c.program.code.size(), c.program.registers, c.layout->accumulators().size(),
                c.layout->slots());
  }
}

TEST(GpuHashAggregate, MatchesCpuOverSizes) {
  EMBER_REQUIRE_GPU();
  for (bool ansi : {true, false}) {
    for (int64_t n :
         {int64_t{0}, int64_t{1}, int64_t{37}, int64_t{65535}, int64_t{65536}, int64_t{200001}}) {
      SCOPED_TRACE("ansi=" + std::to_string(ansi) + " rows=" + std::to_string(n));
      compare(wide_plan(0, n, ansi), config(ansi));
    }
  }
}

TEST(GpuHashAggregate, NegativeStepsAndOffsets) {
  EMBER_REQUIRE_GPU();
  FusedAggregatePlan p = wide_plan(0, 0, true);
  p.start = 1000000;
  p.end = -1000000;
  p.step = -7;
  compare(p, config(true));
}

TEST(GpuHashAggregate, GlobalAggregateOfEmptyInputHasOneRow) {
  EMBER_REQUIRE_GPU();
  FusedAggregatePlan p = wide_plan(5, 5, true);
  p.keys.clear();
  compare(p, config(true));
  p = wide_plan(0, 100000, true);
  p.keys.clear();
  compare(p, config(true));
}

TEST(GpuHashAggregate, ManyGroupsGrowTheTable) {
  EMBER_REQUIRE_GPU();
  FusedAggregatePlan p;
  p.start = -50000;
  p.end = 250000;
  auto id = column(0, L(), false);
  p.keys = {id};
  p.calls = {aggregate("count", {i32(1)}), aggregate("sum", {id}), aggregate("max", {noisy(id)})};
  GpuRunStats s = compare(p, config(true));
  std::printf("many groups: %d attempts, last kernel %.2f ms, total %.2f ms\n", s.attempts,
              s.kernel_ms, s.total_ms);
  EXPECT_EQ(s.groups, 300000);
  EXPECT_GT(s.attempts, 1);
}

TEST(GpuHashAggregate, OutOfDeviceMemoryFallsBackToTheCpu) {
  EMBER_REQUIRE_GPU();
  FusedAggregatePlan p;
  p.end = 300000;
  auto id = column(0, L(), false);
  p.keys = {id};
  p.calls = {aggregate("count", {i32(1)}), aggregate("sum", {id})};
  Config conf;
  conf.set("spark.ember.gpu.maxQueryMemory", "2m");  // the table cannot grow to 300000 groups
  GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
  std::vector<Batch> g = run(gpu, conf);
  EXPECT_FALSE(gpu.last_run().on_gpu);
  EXPECT_NE(gpu.last_run().fallback_reason.find("out of memory"), std::string::npos)
      << gpu.last_run().fallback_reason;
  auto cpu = cpu_tree(p);
  expect_same_rows(g, run(*cpu, conf));
  // The GPU stays usable.
  EXPECT_EQ(Runtime::unavailable_reason(), "");
  compare(wide_plan(0, 1000, true), config(true));
}

TEST(GpuHashAggregate, NullBooleanAndMultipleKeys) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.end = 300000;
  p.keys = {
      if_(call("==", {call("%", {id, i64(5)}), i64(0)}), null_of(L()), call("%", {id, i64(3)})),
      call("==", {call("%", {id, i64(2)}), i64(0)}),
      cast(call("%", {id, i64(4)}), DataType::byte()),
      cast(call("%", {id, i64(3)}), DataType::short_())};
  p.calls = {aggregate("count", {i32(1)}), aggregate("avg", {id}), aggregate("min", {id})};
  compare(p, config(true));
}

TEST(GpuHashAggregate, FloatingEdgeValues) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.end = 100000;
  // Division by zero is null without ANSI; huge products overflow to infinity; inf - inf is NaN.
  auto d = call(
      "/", {cast(id, D()), if_(call("==", {call("%", {id, i64(3)}), i64(0)}), f64(0.0), f64(1.0))});
  auto big = call("*", {call("*", {cast(call("%", {id, i64(5)}), D()), f64(1e308)}), f64(10.0)});
  auto nan =
      if_(call("==", {call("%", {id, i64(11)}), i64(0)}), call("-", {big, big}), cast(id, D()));
  Step s;
  s.exprs = {id, d, big, nan, coalesce({d, f64(-1.0)})};
  p.steps = {s};
  p.keys = {call("%", {column(0, L(), false), i64(13)})};
  auto D1 = column(1, D()), D2 = column(2, D()), D3 = column(3, D()), D4 = column(4, D());
  p.calls = {aggregate("sum", {D1}),    aggregate("min", {D2}),
             aggregate("max", {D2}),    aggregate("avg", {D3}),
             aggregate("min", {D3}),    aggregate("max", {D3}),
             aggregate("stddev", {D3}), aggregate("sum", {D4}),
             aggregate("count", {D1}),  aggregate("count", {i32(1)}, call("isnan", {D3}))};
  compare(p, config(false));
}

TEST(GpuHashAggregate, NonAnsiWrapsLikeTheCpu) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.start = 9223372036854000000LL;
  p.end = 9223372036854775807LL;
  p.step = 3;
  Step s;
  s.exprs = {id,
             call("+", {id, i64(1000000)}),
             call("*", {id, i64(3)}),
             cast(id, DataType::int_()),
             call("negative", {call("-", {id, i64(9223372036854775807LL)})}),
             cast(cast(id, D()), DataType::short_())};
  p.steps = {s};
  p.keys = {call("%", {column(0, L(), false), i64(4)})};
  p.calls = {aggregate("sum", {column(1, L())}),
             aggregate("max", {column(2, L())}),
             aggregate("min", {column(3, DataType::int_())}),
             aggregate("sum", {column(4, L())}),
             aggregate("max", {column(5, DataType::short_())}),
             aggregate("sum", {column(0, L())})};
  compare(p, config(false));
}

TEST(GpuHashAggregate, AnsiErrorsComeFromTheCpu) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.end = 100000;
  Step s;
  s.exprs = {call("*", {id, i64(1LL << 50)})};
  p.steps = {s};
  p.calls = {aggregate("sum", {column(0, L())})};
  Config conf = config(true);
  GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
  try {
    run(gpu, conf);
    FAIL() << "expected an overflow";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "ARITHMETIC_OVERFLOW");
  }
  EXPECT_FALSE(gpu.last_run().on_gpu);
  EXPECT_NE(gpu.last_run().fallback_reason.find("ANSI"), std::string::npos);
}

TEST(GpuHashAggregate, AnsiDivisionByZeroComesFromTheCpu) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.end = 1000;
  Step s;
  s.exprs = {call("%", {i64(10), call("-", {id, i64(500)})})};
  p.steps = {s};
  p.calls = {aggregate("sum", {column(0, L())})};
  Config conf = config(true);
  GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
  EXPECT_THROW(run(gpu, conf), SparkError);
  EXPECT_FALSE(gpu.last_run().on_gpu);
}

TEST(GpuHashAggregate, SumOverflowFallsBackUnderAnsi) {
  EMBER_REQUIRE_GPU();
  auto id = column(0, L(), false);
  FusedAggregatePlan p;
  p.end = 200000;
  Step s;
  s.exprs = {call("*", {id, i64(1LL << 45)})};
  p.steps = {s};
  p.calls = {aggregate("sum", {column(0, L())})};
  Config ansi = config(true);
  GpuHashAggregate gpu(p, cpu_tree(p), read_settings(ansi), true, false);
  EXPECT_THROW(run(gpu, ansi), SparkError);
  EXPECT_FALSE(gpu.last_run().on_gpu);
  compare(p, config(false));
}

/// Reference statistics for the headline query: rand(seed) per partition of Spark's range.
struct Moments {
  int64_t n = 0;
  long double mean = 0, m2 = 0;
};

constexpr int64_t kHeadlinePartitions = 16;

std::map<int, Moments> reference(int64_t rows, int64_t seed) {
  std::map<int, Moments> out;
  uint64_t state = 0;
  int64_t partition = -1;
  for (int64_t i = 0; i < rows; ++i) {
    while (i >= (partition + 1) * rows / kHeadlinePartitions)
      state = functions::xorshift::initial_state(seed + ++partition);
    double v = functions::xorshift::next_double(state);
    Moments& m = out[static_cast<int>(i % 100)];
    ++m.n;
    long double d = v - m.mean;
    m.mean += d / m.n;
    m.m2 += d * (v - m.mean);
  }
  return out;
}

/// spark.range(N).withColumn("v", rand(42)).withColumn("c", (col("id") % 100).cast("int"))
///   .groupBy("c").agg(avg("v"), stddev("v"), count("*"))
FusedAggregatePlan headline(int64_t rows) {
  FusedAggregatePlan p;
  p.end = rows;
  p.partitions = kHeadlinePartitions;
  Step s1, s2;
  s1.exprs = {column(0, L(), false), call("rand", {i32(42)})};
  s2.exprs = {column(0, L(), false), column(1, D(), false),
              cast(call("%", {column(0, L(), false), i64(100)}), DataType::int_())};
  p.steps = {s1, s2};
  p.keys = {column(2, DataType::int_())};
  p.calls = {aggregate("avg", {column(1, D(), false)}),
             aggregate("stddev", {column(1, D(), false)}), aggregate("count", {i32(1)})};
  return p;
}

TEST(GpuHashAggregate, HeadlineQueryMatchesTheReference) {
  EMBER_REQUIRE_GPU();
  for (int64_t rows : {int64_t{1000}, int64_t{1000003}}) {
    FusedAggregatePlan p = headline(rows);
    Config conf;
    GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
    std::vector<Batch> out = run(gpu, conf);
    ASSERT_TRUE(gpu.last_run().on_gpu) << gpu.last_run().fallback_reason;
    std::map<int, Moments> ref = reference(rows, 42);
    auto got = sorted_rows(out);
    ASSERT_EQ(got.size(), ref.size());
    for (auto& r : got) {
      const Moments& m = ref.at(static_cast<int>(r[0].as_int()));
      EXPECT_TRUE(same_value(r[1], Value::floating(static_cast<double>(m.mean)), 1e-12))
          << r[0].as_int();
      EXPECT_TRUE(
          same_value(r[2], Value::floating(std::sqrt(static_cast<double>(m.m2 / (m.n - 1)))), 1e-9))
          << r[0].as_int();
      EXPECT_EQ(r[3].as_int(), m.n);
    }
  }
}

TEST(GpuHashAggregate, RandValuesAreSparksPerPartition) {
  EMBER_REQUIRE_GPU();
  // Two partitions: rows 0-2 start partition 0 (seed 42), rows 32769-32771 partition 1 (seed 43).
  FusedAggregatePlan p;
  p.end = 65539;
  p.partitions = 2;
  Step s;
  s.exprs = {column(0, L(), false), call("rand", {i32(42)})};
  p.steps = {s};
  p.keys = {column(0, L(), false)};
  p.calls = {aggregate("max", {column(1, D(), false)})};
  Config conf;
  GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
  auto rows = sorted_rows(run(gpu, conf));
  ASSERT_TRUE(gpu.last_run().on_gpu) << gpu.last_run().fallback_reason;
  ASSERT_EQ(rows.size(), 65539u);
  EXPECT_EQ(rows[0][1].as_double(), 0.619189370225301);
  EXPECT_EQ(rows[1][1].as_double(), 0.5096018842446481);
  EXPECT_EQ(rows[2][1].as_double(), 0.8325259388871524);
  EXPECT_EQ(rows[32769][1].as_double(), 0.8017532427858894);
  EXPECT_EQ(rows[32770][1].as_double(), 0.6565552949992319);
  EXPECT_EQ(rows[32771][1].as_double(), 0.2515595782593636);
}

TEST(GpuHashAggregate, RandFollowsRangePartitionsOfAnySize) {
  EMBER_REQUIRE_GPU();
  // Partitions smaller than a thread's rows and than a block's, and uneven ones: every value
  // equals the CPU kernel's for the same partition and position.
  const functions::FunctionDef* rand = functions::Registry::instance().find("rand");
  for (int64_t partitions : {int64_t{3}, int64_t{1000}, int64_t{70000}}) {
    FusedAggregatePlan p;
    p.end = 65539;
    p.partitions = partitions;
    Step s;
    s.exprs = {column(0, L(), false), call("rand", {i32(42)})};
    p.steps = {s};
    p.keys = {column(0, L(), false)};
    p.calls = {aggregate("max", {column(1, D(), false)})};
    Config conf;
    GpuHashAggregate gpu(p, cpu_tree(p), read_settings(conf), true, false);
    auto rows = sorted_rows(run(gpu, conf));
    ASSERT_TRUE(gpu.last_run().on_gpu) << gpu.last_run().fallback_reason;
    ASSERT_EQ(rows.size(), 65539u);
    for (int64_t part = 0; part < partitions; part += partitions > 100 ? 37 : 1) {
      int64_t begin = part * p.end / partitions, end = (part + 1) * p.end / partitions;
      functions::PartitionScope scope({part, 0});
      int64_t n = end - begin;
      if (n == 0) continue;
      ColumnPtr v = rand->kernel({Column::constant(DataType::int_(), Value::integer(42), n)}, n,
                                 rand->type_rule({DataType::int_()}, conf), functions::EvalContext());
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(rows[static_cast<size_t>(begin + i)][1].as_double(), v->values<double>()[i])
            << partitions << " " << part << " " << i;
    }
  }
}

// ---- Over host batches -------------------------------------------------------------------------

std::vector<TypePtr> batch_types() {
  return {L(),
          DataType::int_(),
          D(),
          DataType::float_(),
          DataType::boolean(),
          DataType::byte(),
          DataType::short_(),
          DataType::date(),
          DataType::string()};
}

/// Random batches: nulls in every column, NaN and infinities in the floating ones, a string
/// column of `string_range` distinct values (some long, one empty).
std::vector<Batch> random_batches(int count, int64_t rows, uint64_t seed, int64_t key_range,
                                  int64_t string_range = 100) {
  std::mt19937_64 rng(seed);
  std::vector<Batch> out;
  for (int b = 0; b < count; ++b) {
    std::vector<TypePtr> types = batch_types();
    std::vector<std::unique_ptr<ColumnBuilder>> cols;
    for (auto& t : types) cols.push_back(std::make_unique<ColumnBuilder>(t, rows));
    for (int64_t i = 0; i < rows; ++i) {
      for (size_t c = 0; c < types.size(); ++c) {
        uint64_t r = rng();
        if (r % 11 == 0) {
          cols[c]->append_null();
          continue;
        }
        int64_t v = static_cast<int64_t>(r >> 8);
        switch (c) {
          case 0:
            cols[c]->append<int64_t>(v % key_range - key_range / 3);
            break;
          case 1:
            cols[c]->append<int32_t>(static_cast<int32_t>(v % 100000) - 50000);
            break;
          case 2:
            cols[c]->append<double>(
                r % 97 == 1 ? NAN
                            : (r % 89 == 1 ? INFINITY : static_cast<double>(v % 1000000) / 7.0));
            break;
          case 3:
            cols[c]->append<float>(static_cast<float>(v % 10000) / 3.0f);
            break;
          case 4:
            cols[c]->append_bool(v & 1);
            break;
          case 5:
            cols[c]->append<int8_t>(static_cast<int8_t>(v));
            break;
          case 6:
            cols[c]->append<int16_t>(static_cast<int16_t>(v));
            break;
          case 7:
            cols[c]->append<int32_t>(static_cast<int32_t>(v % 40000));
            break;
          default: {
            int64_t k = v % string_range;
            cols[c]->append_bytes(k == 0 ? std::string()
                                         : "s" + std::to_string(k) +
                                               (k % 3 == 0 ? "-a-longer-string-key" : ""));
            break;
          }
        }
      }
    }
    Batch batch;
    batch.num_rows = rows;
    for (auto& c : cols) batch.columns.push_back(c->finish());
    out.push_back(std::move(batch));
  }
  return out;
}

exec::OperatorPtr cpu_tree_over(const FusedAggregatePlan& p, const std::vector<Batch>& batches) {
  std::vector<int> all;
  for (size_t i = 0; i < batch_types().size(); ++i) all.push_back(static_cast<int>(i));
  exec::OperatorPtr cur = std::make_unique<exec::LocalScan>(batches, all);
  for (auto& s : p.steps) {
    exec::OperatorPtr op;
    if (s.filter)
      op = std::make_unique<exec::Filter>(s.exprs[0]);
    else
      op = std::make_unique<exec::Project>(s.exprs);
    op->children.push_back(std::move(cur));
    cur = std::move(op);
  }
  auto agg = std::make_unique<exec::HashAggregate>(p.keys, p.calls);
  agg->children.push_back(std::move(cur));
  return agg;
}

/// The GPU aggregate over `batches`, wired as placement wires it: stages, then a reference to
/// the CPU tree's source.
std::unique_ptr<GpuHashAggregate> gpu_over(FusedAggregatePlan p, const std::vector<Batch>& batches,
                                           const Config& conf) {
  p.range = false;
  p.source_types = batch_types();
  auto cpu = cpu_tree_over(p, batches);
  const exec::PhysicalOperator* source = cpu.get();
  while (!source->children.empty()) source = source->children[0].get();
  size_t steps = p.steps.size();
  auto g = std::make_unique<GpuHashAggregate>(std::move(p), std::move(cpu), read_settings(conf),
                                              conf.ansi_enabled(), false);
  exec::OperatorPtr chain = std::make_unique<GpuSourceRef>(source);
  for (size_t i = 0; i < steps; ++i) {
    auto stage = std::make_unique<GpuFusedStage>("Stage", "");
    stage->children.push_back(std::move(chain));
    chain = std::move(stage);
  }
  g->children.push_back(std::move(chain));
  return g;
}

FusedAggregatePlan batch_plan() {
  FusedAggregatePlan p;
  auto a = column(0, L()), b = column(1, DataType::int_()), c = column(2, D()),
       d = column(3, DataType::float_()), e = column(4, DataType::boolean()),
       f = column(5, DataType::byte()), g = column(6, DataType::short_()),
       h = column(7, DataType::date());
  Step s;
  s.exprs = {a, call("+", {b, i32(7)}), c, d, e, f, g, h, call("%", {a, i64(997)})};
  Step filter;
  filter.filter = true;
  filter.exprs = {call("or", {call("not", {column(4, DataType::boolean())}),
                              call(">", {column(1, DataType::int_()), i32(0)})})};
  p.steps = {s, filter};
  auto A = column(0, L()), B = column(1, DataType::int_()), C = column(2, D()),
       Dd = column(3, DataType::float_()), F = column(5, DataType::byte()),
       G = column(6, DataType::short_()), H = column(7, DataType::date());
  p.keys = {column(8, L())};
  p.calls = {aggregate("count", {i32(1)}),
             aggregate("count", {C}),
             aggregate("sum", {A}),
             aggregate("sum", {B}),
             aggregate("avg", {C}),
             aggregate("min", {C}),
             aggregate("max", {C}),
             aggregate("min", {Dd}),
             aggregate("max", {F}),
             aggregate("min", {G}),
             aggregate("max", {H}),
             aggregate("stddev", {C}),
             aggregate("var_pop", {B}),
             aggregate("avg", {G}),
             aggregate("min", {column(4, DataType::boolean())}),
             aggregate("sum", {B}, call(">", {A, i64(0)}))};
  return p;
}

TEST(GpuHashAggregate, MatchesCpuOverHostBatches) {
  EMBER_REQUIRE_GPU();
  Config conf = config(false);
  for (auto [count, rows] : {std::pair<int, int64_t>{0, 0}, {1, 10}, {3, 1000}, {5, 70000}}) {
    SCOPED_TRACE(std::to_string(count) + " batches of " + std::to_string(rows));
    auto batches = random_batches(count, rows, 17 + rows, 100000);
    auto gpu = gpu_over(batch_plan(), batches, conf);
    std::vector<Batch> g = run(*gpu, conf);
    EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
    auto cpu = cpu_tree_over(batch_plan(), batches);
    expect_same_rows(g, run(*cpu, conf), 1e-9);
  }
}

TEST(GpuHashAggregate, GroupsByStringsOverHostBatches) {
  EMBER_REQUIRE_GPU();
  Config conf = config(false);
  TypePtr S = DataType::string();
  for (auto [count, rows] : {std::pair<int, int64_t>{1, 10}, {5, 70000}}) {
    SCOPED_TRACE(std::to_string(count) + " batches of " + std::to_string(rows));
    auto batches = random_batches(count, rows, 31 + rows, 1000);
    // A filter and a projection that carries the string through, then two keys.
    FusedAggregatePlan p;
    Step filter;
    filter.filter = true;
    filter.exprs = {
        call("or", {call("isnull", {column(2, D())}), call(">", {column(2, D()), f64(10)})})};
    Step project;
    project.exprs = {column(8, S), column(4, DataType::boolean()), column(2, D()),
                     column(1, DataType::int_()), column(0, L())};
    p.steps = {filter, project};
    p.keys = {column(0, S), column(1, DataType::boolean())};
    p.calls = {aggregate("count", {i32(1)}),       aggregate("sum", {column(2, D())}),
               aggregate("avg", {column(2, D())}), aggregate("count", {column(0, S)}),
               aggregate("max", {column(4, L())}), aggregate("sum", {column(3, DataType::int_())})};
    auto gpu = gpu_over(p, batches, conf);
    std::vector<Batch> g = run(*gpu, conf);
    EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
    EXPECT_GT(gpu->last_run().groups, count == 1 ? 2 : 150);
    auto cpu = cpu_tree_over(p, batches);
    expect_same_rows(g, run(*cpu, conf), 1e-9);
  }
}

/// `batch` with its string column (8) replaced by a dictionary column of the same values: a
/// dictionary of the batch's distinct strings in an order of its own (different per batch), and
/// null rows holding codes far out of the dictionary's range.
Batch with_dictionary_strings(const Batch& batch, uint64_t seed) {
  const ColumnPtr& s = batch.columns[8];
  std::vector<std::string> distinct;
  std::map<std::string, int32_t> index;
  for (int64_t i = 0; i < s->length(); ++i)
    if (s->is_valid(i)) index.emplace(std::string(s->string_at(i)), 0);
  for (auto& [value, code] : index) distinct.push_back(value);
  std::shuffle(distinct.begin(), distinct.end(), std::mt19937_64(seed));
  ColumnBuilder dict(DataType::string(), static_cast<int64_t>(distinct.size()));
  for (size_t i = 0; i < distinct.size(); ++i) {
    dict.append_bytes(distinct[i]);
    index[distinct[i]] = static_cast<int32_t>(i);
  }
  auto codes = std::make_shared<DictionaryCodes>();
  codes->codes = Buffer::allocate(static_cast<size_t>(s->length()) * sizeof(int32_t));
  codes->cardinality = static_cast<int32_t>(distinct.size());
  int32_t* c = codes->codes->mutable_as<int32_t>();
  for (int64_t i = 0; i < s->length(); ++i) c[i] = s->is_valid(i) ? index[std::string(s->string_at(i))] : 0x3fffffff;
  Batch out = batch;
  out.columns[8] = Column::from_dictionary(DataType::string(), s->length(), s->validity_buffer(), dict.finish(),
                                           codes, s->null_count());
  return out;
}

TEST(GpuHashAggregate, GroupsByDictionaryStringsWithoutMakingTheirBytes) {
  EMBER_REQUIRE_GPU();
  Config conf = config(false);
  TypePtr S = DataType::string();
  std::vector<Batch> batches;
  uint64_t seed = 3;
  for (auto& b : random_batches(4, 70000, 41, 1000, 300)) batches.push_back(with_dictionary_strings(b, seed++));
  FusedAggregatePlan p;
  p.keys = {column(8, S), column(4, DataType::boolean())};
  p.calls = {aggregate("count", {i32(1)}), aggregate("count", {column(8, S)}),
             aggregate("sum", {column(1, DataType::int_())})};
  auto gpu = gpu_over(p, batches, conf);
  std::vector<Batch> g = run(*gpu, conf);
  EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
  EXPECT_GT(gpu->last_run().groups, 500);
  // The dictionaries and codes went up, not the strings.
  for (auto& b : batches) EXPECT_FALSE(b.columns[8]->strings_made());
  auto cpu = cpu_tree_over(p, batches);
  expect_same_rows(g, run(*cpu, conf));
}

TEST(GpuHashAggregate, ManyDistinctStringsGrowTheTableAndTheHeap) {
  EMBER_REQUIRE_GPU();
  Config conf = config(true);
  auto batches = random_batches(6, 70000, 11, 1000, int64_t{1} << 40);
  FusedAggregatePlan p;
  p.keys = {column(8, DataType::string())};
  p.calls = {aggregate("count", {i32(1)}), aggregate("min", {column(1, DataType::int_())})};
  auto gpu = gpu_over(p, batches, conf);
  std::vector<Batch> g = run(*gpu, conf);
  EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
  EXPECT_GT(gpu->last_run().groups, 350000);
  auto cpu = cpu_tree_over(p, batches);
  expect_same_rows(g, run(*cpu, conf));
}

TEST(GpuHashAggregate, HostBatchesGrowTheTableBetweenBatches) {
  EMBER_REQUIRE_GPU();
  Config conf = config(true);
  auto batches = random_batches(6, 70000, 5, int64_t{1} << 40);
  FusedAggregatePlan p;
  p.keys = {column(0, L())};
  p.calls = {aggregate("count", {i32(1)}), aggregate("max", {column(2, D())}),
             aggregate("sum", {column(1, DataType::int_())})};
  auto gpu = gpu_over(p, batches, conf);
  std::vector<Batch> g = run(*gpu, conf);
  EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
  EXPECT_GT(gpu->last_run().groups, 300000);
  auto cpu = cpu_tree_over(p, batches);
  expect_same_rows(g, run(*cpu, conf));
}

TEST(GpuHashAggregate, KernelsSideBySideWhileTheTableAndHeapGrow) {
  // Many batches of mostly new string and integer keys: scan threads launch into the table at
  // once while others wait to grow it or its string heap, repeatedly.
  EMBER_REQUIRE_GPU();
  Config conf = config(true);
  auto batches = random_batches(40, 12000, 23, int64_t{1} << 40, int64_t{1} << 40);
  for (bool strings : {false, true}) {
    SCOPED_TRACE(strings ? "string keys" : "integer keys");
    FusedAggregatePlan p;
    p.keys = {strings ? column(8, DataType::string()) : column(0, L())};
    p.calls = {aggregate("count", {i32(1)}), aggregate("sum", {column(1, DataType::int_())}),
               aggregate("max", {column(2, D())})};
    auto gpu = gpu_over(p, batches, conf);
    std::vector<Batch> g = run(*gpu, conf);
    EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
    EXPECT_GT(gpu->last_run().groups, 400000);
    auto cpu = cpu_tree_over(p, batches);
    expect_same_rows(g, run(*cpu, conf));
  }
}

TEST(GpuHashAggregate, HostBatchesFallBackWhenMemoryIsShort) {
  EMBER_REQUIRE_GPU();
  Config conf = config(true);
  conf.set("spark.ember.gpu.maxQueryMemory", "1m");
  auto batches = random_batches(2, 5000, 9, 1000);
  auto gpu = gpu_over(batch_plan(), batches, conf);
  std::vector<Batch> g = run(*gpu, conf);
  EXPECT_FALSE(gpu->last_run().on_gpu);
  EXPECT_NE(gpu->last_run().fallback_reason.find("out of memory"), std::string::npos)
      << gpu->last_run().fallback_reason;
  auto cpu = cpu_tree_over(batch_plan(), batches);
  expect_same_rows(g, run(*cpu, conf));
}

TEST(GpuHashAggregate, HostBatchAnsiErrorsComeFromTheCpu) {
  EMBER_REQUIRE_GPU();
  Config conf = config(true);
  auto batches = random_batches(2, 5000, 3, 1000);
  FusedAggregatePlan p;
  Step s;
  s.exprs = {call("*", {column(1, DataType::int_()), i32(1000000)})};
  p.steps = {s};
  p.calls = {aggregate("sum", {column(0, DataType::int_())})};
  auto gpu = gpu_over(p, batches, conf);
  try {
    run(*gpu, conf);
    FAIL() << "expected an overflow";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "ARITHMETIC_OVERFLOW");
  }
  EXPECT_FALSE(gpu->last_run().on_gpu);
}

TEST(GpuHashAggregate, HostBatchesTakeNoTaskSlot) {
  EMBER_REQUIRE_GPU();
  Config conf = config(false);
  Runtime* rt = Runtime::get(read_settings(conf));
  ASSERT_NE(rt, nullptr);
  auto batches = random_batches(6, 20000, 9, 1000);
  auto gpu = gpu_over(batch_plan(), batches, conf);
  std::vector<Batch> g;
  {
    // Every slot of spark.rapids.sql.concurrentGpuTasks (2) is held elsewhere.
    auto a = std::make_unique<GpuTaskPermit>(*rt, 2), b = std::make_unique<GpuTaskPermit>(*rt, 2);
    auto done = std::async(std::launch::async, [&] { return run(*gpu, conf); });
    bool finished = done.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    EXPECT_TRUE(finished) << "the aggregation waited for a task slot";
    a.reset();
    b.reset();
    g = done.get();
  }
  EXPECT_TRUE(gpu->last_run().on_gpu) << gpu->last_run().fallback_reason;
  auto cpu = cpu_tree_over(batch_plan(), batches);
  expect_same_rows(g, run(*cpu, conf), 1e-9);
}

TEST(GpuHashAggregate, SemaphoreBoundsConcurrentTasks) {
  EMBER_REQUIRE_GPU();
  Runtime* rt = Runtime::get(read_settings(Config()));
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->semaphore().active(), 0);
  {
    GpuTaskPermit a(*rt, 2), b(*rt, 2);
    EXPECT_EQ(rt->semaphore().active(), 2);
  }
  EXPECT_EQ(rt->semaphore().active(), 0);
}

}  // namespace
}  // namespace ember::gpu
