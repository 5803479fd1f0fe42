// Host-side parts of the GPU layer that need no device: settings, expression support checks,
// the rand generator and its jump-ahead, and order-preserving encodings.

#include "gpu/program.h"

#include <gtest/gtest.h>

#include <random>

#include "functions/rand.h"
#include "gpu/aggregate_layout.h"
#include "gpu/fused_aggregate.h"
#include "gpu/rand_jump.h"
#include "gpu/settings.h"
#include "gpu_test_util.h"

namespace ember::gpu {
namespace {

using namespace test_util;

TEST(GpuSettings, ReadsRapidsAndEmberKeys) {
  Config conf;
  GpuSettings s = read_settings(conf);
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.explain, ExplainGpu::kNotOnGpu);
  EXPECT_DOUBLE_EQ(s.alloc_fraction, 0.9);
  EXPECT_EQ(s.concurrent_tasks, 2);
  conf.set("spark.rapids.sql.enabled", "false");
  s = read_settings(conf);
  EXPECT_FALSE(s.enabled);
  EXPECT_EQ(s.disabled_by, "spark.rapids.sql.enabled is false");
  conf.set("spark.rapids.sql.enabled", "true");
  conf.set("spark.ember.gpu.enabled", "false");
  EXPECT_FALSE(read_settings(conf).enabled);
  conf.set("spark.ember.gpu.enabled", "true");
  conf.set("spark.rapids.memory.gpu.allocFraction", "0.5");
  EXPECT_DOUBLE_EQ(read_settings(conf).alloc_fraction, 0.5);
  conf.set("spark.ember.gpu.allocFraction", "0.25");
  EXPECT_DOUBLE_EQ(read_settings(conf).alloc_fraction, 0.25);
  conf.set("spark.rapids.memory.pinnedPool.size", "512m");
  EXPECT_EQ(read_settings(conf).pinned_pool_bytes, int64_t{512} << 20);
  conf.set("spark.rapids.sql.explain", "all");
  EXPECT_EQ(read_settings(conf).explain, ExplainGpu::kAll);
  conf.set("spark.rapids.sql.explain", "sometimes");
  EXPECT_THROW(read_settings(conf), SparkError);
  conf.set("spark.rapids.sql.explain", "NONE");
  conf.set("spark.ember.gpu.allocFraction", "1.5");
  EXPECT_THROW(read_settings(conf), SparkError);
}

TEST(GpuSettings, ParsesByteStrings) {
  EXPECT_EQ(parse_bytes("1024", "k"), 1024);
  EXPECT_EQ(parse_bytes("64k", "k"), 64 << 10);
  EXPECT_EQ(parse_bytes("640m", "k"), int64_t{640} << 20);
  EXPECT_EQ(parse_bytes("1G", "k"), int64_t{1} << 30);
  EXPECT_EQ(parse_bytes("2tb", "k"), int64_t{2} << 40);
  EXPECT_THROW(parse_bytes("lots", "k"), SparkError);
  EXPECT_THROW(parse_bytes("", "k"), SparkError);
}

TEST(GpuProgram, ExplainsWhatItCannotRun) {
  // Strings load (for keys, count and null tests) but nothing computes over them.
  auto s = column(0, DataType::string());
  EXPECT_EQ(unsupported_reason(*s, true), "");
  EXPECT_EQ(unsupported_reason(*call("isnull", {s}), true), "");
  EXPECT_EQ(unsupported_reason(*call("==", {s, s}), true),
            "expression == over type string is not supported");
  EXPECT_EQ(unsupported_reason(*cast(s, DataType::int_()), true),
            "cast from string to int is not supported");
  EXPECT_EQ(unsupported_reason(*literal(Value::bytes("x"), DataType::string()), true),
            "literals of type string are not supported");
  EXPECT_EQ(unsupported_reason(*coalesce({s, s}), true),
            "expression coalesce over type string is not supported");
  auto d = column(0, DataType::decimal(10, 2));
  EXPECT_EQ(unsupported_reason(*d, true), "type decimal(10,2) is not supported");
  auto ok = call("+", {column(0, DataType::long_()), i64(1)});
  EXPECT_EQ(unsupported_reason(*ok, true), "");
  auto cmp = call("<", {call("%", {column(0, DataType::long_()), i64(3)}), i64(2)});
  EXPECT_EQ(unsupported_reason(*cmp, false), "");
}

TEST(GpuProgram, RejectsRandAfterAFilter) {
  ProgramBuilder b(true);
  b.start_range();
  b.filter(*call(">", {column(0, DataType::long_()), i64(3)}));
  EXPECT_THROW(b.project({column(0, DataType::long_()), call("rand", {i32(1)})}), Unsupported);
}

TEST(GpuProgram, CompilesTheHeadlineQuery) {
  ProgramBuilder b(true);
  b.start_range();
  b.project({column(0, DataType::long_(), false), call("rand", {i32(42)})});
  b.project({column(1, DataType::double_(), false),
             cast(call("%", {column(0, DataType::long_(), false), i64(100)}), DataType::int_())});
  AggregateLayout layout(
      b, {column(1, DataType::int_())},
      {aggregate("avg", {column(0, DataType::double_())}),
       aggregate("stddev", {column(0, DataType::double_())}), aggregate("count", {i32(1)})},
      true, false);
  // Counts of rows and of valid v are one accumulator (v is never null); avg reads the shifted
  // sums of stddev.
  EXPECT_EQ(b.program().rand_generators, 1);
  EXPECT_EQ(layout.accumulators().size(), 2u);
  EXPECT_EQ(layout.slots(), 4);
  layout.remap(b.allocate(layout.live_values()));
  // id, rand, 100, id % 100, the cast: at most three live at once.
  EXPECT_LE(b.program().registers, 3) << b.program().to_string();
}

TEST(GpuProgram, RejectsFloatingGroupKeys) {
  ProgramBuilder b(true);
  b.start_range();
  EXPECT_THROW(AggregateLayout(b, {cast(column(0, DataType::long_()), DataType::double_())}, {},
                               true, false),
               Unsupported);
}

TEST(GpuProgram, GroupsByStringColumnsAndPrunesUnusedOnes) {
  ProgramBuilder b(true);
  b.start_columns({DataType::int_(), DataType::string(), DataType::double_(), DataType::string(),
                   DataType::timestamp()});
  // A projection that keeps a column nothing above reads: it is not loaded on the device.
  b.project({column(3, DataType::string()), column(1, DataType::string()),
             column(2, DataType::double_()), column(4, DataType::timestamp())});
  b.filter(*call(">", {column(2, DataType::double_()), f64(100)}));
  AggregateLayout layout(
      b, {column(0, DataType::string()), column(1, DataType::string())},
      {aggregate("sum", {column(2, DataType::double_())}), aggregate("count", {i32(1)}),
       aggregate("avg", {column(2, DataType::double_())}),
       aggregate("count", {column(0, DataType::string())})},
      true, false);
  EXPECT_EQ(layout.key_string_sources(), (std::vector<int>{3, 1}));
  EXPECT_TRUE(layout.has_string_keys());
  layout.remap(b.allocate(layout.live_values()));
  EXPECT_EQ(b.program().columns.size(), 3u) << b.program().to_string();
  for (int c : b.program().columns) EXPECT_NE(c, 4);
  ProgramBuilder other(true);
  other.start_columns({DataType::string()});
  EXPECT_THROW(
      AggregateLayout(other, {}, {aggregate("max", {column(0, DataType::string())})}, true, false),
      Unsupported);
}

TEST(GpuAggregateLayout, OrdersDoublesLikeSpark) {
  std::vector<double> v = {-INFINITY, -1e300, -1.0, -0.0, 0.0, 1e-300, 1.0, INFINITY, NAN};
  for (size_t i = 0; i + 1 < v.size(); ++i)
    EXPECT_LT(encode_ordered(v[i]), encode_ordered(v[i + 1])) << i;
  for (double d : v) {
    if (std::isnan(d))
      EXPECT_TRUE(std::isnan(decode_ordered(encode_ordered(d))));
    else
      EXPECT_EQ(decode_ordered(encode_ordered(d)), d);
  }
  EXPECT_EQ(encode_ordered(-NAN), encode_ordered(NAN));
}

// Spark 4.3: spark.range(0, 6, 1, 2).select(rand(42)) puts rows 0-2 in partition 0 (seed 42) and
// rows 3-5 in partition 1 (seed 43).
TEST(Rand, MatchesSparkPerPartition) {
  const double kSeed42[] = {0.619189370225301, 0.5096018842446481, 0.8325259388871524};
  const double kSeed43[] = {0.8017532427858894, 0.6565552949992319, 0.2515595782593636};
  const double kSeedMinus7[] = {0.14773215621571878, 0.0914602266360357, 0.024990435468302152};
  const functions::FunctionDef* rand = functions::Registry::instance().find("rand");
  ASSERT_NE(rand, nullptr);
  EXPECT_FALSE(rand->deterministic);
  auto seed = [](int64_t s) { return Column::constant(DataType::int_(), Value::integer(s), 3); };
  functions::Signature sig = rand->type_rule({DataType::int_()}, Config());
  functions::EvalContext ctx;
  {
    functions::PartitionScope p({0, 0});
    ColumnPtr v = rand->kernel({seed(42)}, 3, sig, ctx);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(v->values<double>()[i], kSeed42[i]);
    v = rand->kernel({seed(-7)}, 3, sig, ctx);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(v->values<double>()[i], kSeedMinus7[i]);
  }
  {
    functions::PartitionScope p({1, 0});
    ColumnPtr v = rand->kernel({seed(42)}, 3, sig, ctx);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(v->values<double>()[i], kSeed43[i]);
  }
  {
    // A batch starting at row 1 of its partition continues the stream.
    functions::PartitionScope p({1, 1});
    ColumnPtr v = rand->kernel({seed(42)}, 2, sig, ctx);
    EXPECT_EQ(v->values<double>()[0], kSeed43[1]);
    EXPECT_EQ(v->values<double>()[1], kSeed43[2]);
  }
  EXPECT_EQ(functions::current_partition().partition, 0);
}

TEST(Rand, JumpAheadEqualsStepping) {
  std::vector<uint64_t> tables = xorshift_jump_tables(kRandStrideSteps);
  std::mt19937_64 rng(7);
  for (int t = 0; t < 20; ++t) {
    uint64_t state = rng() | 1;
    uint64_t steps = rng() % 300000;
    uint64_t stepped = state;
    for (uint64_t i = 0; i < steps; ++i) stepped = functions::xorshift::step(stepped);
    EXPECT_EQ(xorshift_jump(tables.data(), state, steps), stepped) << steps;
  }
  // The stride table advances kRandStrideSteps.
  uint64_t state = 0x1234567887654321ULL, stepped = state;
  for (uint64_t i = 0; i < kRandStrideSteps; ++i) stepped = functions::xorshift::step(stepped);
  const uint64_t* stride = tables.data() + static_cast<size_t>(kJumpPowers) * 64;
  uint64_t jumped = 0;
  for (int b = 0; b < 64; ++b)
    if ((state >> b) & 1) jumped ^= stride[b];
  EXPECT_EQ(jumped, stepped);
}

}  // namespace
}  // namespace ember::gpu
