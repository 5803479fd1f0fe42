// The GPU probe of a hash join against the CPU probe of the same table: direct and hashed
// integer indexes, one and two keys, duplicate build keys, nulls and keys outside the build
// range, first-match probes, empty batches, and the offload's placement decisions. The pairs
// must be identical, in the same order, and the build columns the device gathers must equal the
// host's gather of them. Skipped without a GPU.

#include "gpu/join_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "exec/join_hash_table.h"
#include "gpu/operators.h"
#include "gpu/runtime.h"
#include "gpu_test_util.h"

namespace ember::gpu {
namespace {

/// A column of `n` values drawn from [lo, hi], null with probability 1/`null_every` (0: none).
ColumnPtr keys(TypePtr type, int64_t n, int64_t lo, int64_t hi, int null_every,
               std::mt19937_64& rng) {
  ColumnBuilder b(type, n);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t r = rng();
    if (null_every > 0 && r % static_cast<uint64_t>(null_every) == 0) {
      b.append_null();
      continue;
    }
    int64_t v = lo + static_cast<int64_t>((r >> 8) % static_cast<uint64_t>(hi - lo + 1));
    if (type->byte_width() == 4)
      b.append<int32_t>(static_cast<int32_t>(v));
    else
      b.append<int64_t>(v);
  }
  return b.finish();
}

Batch rows_of(int64_t n) {
  ColumnBuilder b(DataType::long_(), n);
  for (int64_t i = 0; i < n; ++i) b.append<int64_t>(i);
  Batch out;
  out.num_rows = n;
  out.columns.push_back(b.finish());
  return out;
}

struct Case {
  const char* name;
  TypePtr type;
  int64_t build_rows, build_lo, build_hi;  // build keys drawn from [lo, hi]
  int64_t probe_lo, probe_hi;
  int null_every;
  int key_count;
  exec::JoinHashTable::Mode mode;
  int64_t unique_stride = 0;  // > 0: build keys are i * stride, shuffled (no key repeats)
};

/// Build keys i * stride for i < n, in a random order, with no nulls.
ColumnPtr unique_keys(int64_t n, int64_t stride, std::mt19937_64& rng) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i * stride;
  std::shuffle(v.begin(), v.end(), rng);
  ColumnBuilder b(DataType::long_(), n);
  for (int64_t x : v) b.append<int64_t>(x);
  return b.finish();
}

TEST(GpuJoinProbe, PairsEqualTheCpuProbe) {
  EMBER_REQUIRE_GPU();
  GpuSettings settings;
  Runtime* runtime = Runtime::get(settings);
  ASSERT_NE(runtime, nullptr);
  const std::vector<Case> cases = {
      {"direct unique", DataType::int_(), 200000, 0, 199999, -50, 250000, 0, 1,
       exec::JoinHashTable::Mode::kDirect},
      {"direct duplicates and nulls", DataType::long_(), 100000, 1000, 30000, 0, 40000, 17, 1,
       exec::JoinHashTable::Mode::kDirect},
      {"hashed sparse", DataType::long_(), 50000, -(int64_t{1} << 40), int64_t{1} << 40,
       -(int64_t{1} << 40), int64_t{1} << 40, 29, 1, exec::JoinHashTable::Mode::kInt64},
      {"hashed duplicates", DataType::long_(), 80000, 0, 1 << 24, 0, 1 << 24, 0, 1,
       exec::JoinHashTable::Mode::kInt64},
      {"two keys", DataType::int_(), 60000, 0, 300, -5, 305, 23, 2,
       exec::JoinHashTable::Mode::kDirect},
      {"direct unique keys", DataType::long_(), 150000, 0, 0, -100, 160000, 0, 1,
       exec::JoinHashTable::Mode::kDirect, 1},
      {"hashed unique keys", DataType::long_(), 150000, 0, 0, -100, int64_t{150000} * 1000003, 31,
       1, exec::JoinHashTable::Mode::kInt64, 1000003},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::mt19937_64 rng(42);
    std::vector<ColumnPtr> build_keys, probe_keys;
    for (int k = 0; k < c.key_count; ++k)
      build_keys.push_back(c.unique_stride > 0 ? unique_keys(c.build_rows, c.unique_stride, rng)
                                               : keys(c.type, c.build_rows, c.build_lo, c.build_hi,
                                                      c.null_every, rng));
    // Probe rows: half copy a random build row's keys (hits, duplicates, nulls), half are drawn
    // from the probe range (mostly misses, some outside the build range).
    const int64_t n = 70000;
    std::vector<ColumnPtr> drawn;
    for (int k = 0; k < c.key_count; ++k)
      drawn.push_back(keys(c.type, n, c.probe_lo, c.probe_hi, c.null_every, rng));
    std::vector<std::unique_ptr<ColumnBuilder>> out;
    for (int k = 0; k < c.key_count; ++k) out.push_back(std::make_unique<ColumnBuilder>(c.type, n));
    for (int64_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      int64_t from = static_cast<int64_t>((r >> 1) % static_cast<uint64_t>(c.build_rows));
      for (int k = 0; k < c.key_count; ++k) {
        if (r & 1)
          out[static_cast<size_t>(k)]->append_from(*build_keys[static_cast<size_t>(k)], from);
        else
          out[static_cast<size_t>(k)]->append_from(*drawn[static_cast<size_t>(k)], i);
      }
    }
    for (auto& b : out) probe_keys.push_back(b->finish());
    std::vector<bool> null_safe(static_cast<size_t>(c.key_count), false);
    exec::JoinHashTable table;
    table.build(rows_of(c.build_rows), build_keys, null_safe);
    ASSERT_EQ(table.mode(), c.mode);

    Stream stream;
    DeviceMemoryPool pool("test", &runtime->device_pool(), 0);
    DeviceJoinIndex index(table.int_index(), pool, stream);
    std::vector<int64_t> combined;
    table.combine_int_keys(probe_keys, n, combined);
    // Copies straight from and to pageable memory, staged through a pinned pool, and through
    // one too small to stage anything.
    PinnedPool pinned(size_t{64} << 20), tiny(1024);
    for (PinnedPool* staging : {static_cast<PinnedPool*>(nullptr), &pinned, &tiny})
      for (bool first_only : {false, true}) {
        std::vector<int32_t> cpu_p, cpu_b;
        table.probe(probe_keys, null_safe, n, cpu_p, cpu_b, first_only);
        exec::JoinProbeRequest request;
        request.first_only = first_only;
        exec::JoinProbeResult gpu;
        index.probe(combined.data(), n, request, {}, pool, stream, gpu, staging);
        ASSERT_GT(cpu_p.size(), 0u);
        EXPECT_EQ(gpu.probe_rows, cpu_p) << "first_only " << first_only;
        EXPECT_EQ(gpu.build_rows, cpu_b) << "first_only " << first_only;
        // Some probe rows miss, so the pairs are never the identity here.
        EXPECT_FALSE(gpu.probe_identity);
        EXPECT_EQ(pinned.used(), 0u);
      }
    exec::JoinProbeResult empty;
    empty.probe_rows = {1};
    empty.build_rows = {2};
    index.probe(combined.data(), 0, exec::JoinProbeRequest{}, {}, pool, stream, empty);
    EXPECT_TRUE(empty.probe_rows.empty() && empty.build_rows.empty());
  }
}

TEST(GpuJoinProbe, OffloadDeclinesSmallAndNonIntegerTables) {
  EMBER_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  GpuSettings settings;
  settings.join_min_build_rows = 1000;
  {
    exec::JoinHashTable table;
    table.build(rows_of(500), {keys(DataType::long_(), 500, 0, 499, 0, rng)}, {false});
    GpuJoinProbe offload(settings);
    EXPECT_FALSE(offload.prepare(table));
    EXPECT_NE(
        offload.last_run().fallback_reason.find("fewer than spark.ember.gpu.joinMinBuildRows"),
        std::string::npos)
        << offload.last_run().fallback_reason;
  }
  {
    ColumnBuilder s(DataType::string(), 2000);
    for (int i = 0; i < 2000; ++i) s.append_bytes("k" + std::to_string(i));
    exec::JoinHashTable table;
    table.build(rows_of(2000), {s.finish()}, {false});
    GpuJoinProbe offload(settings);
    EXPECT_FALSE(offload.prepare(table));
    EXPECT_EQ(offload.last_run().fallback_reason, "the build keys are not indexed as integers");
  }
  {
    exec::JoinHashTable table;
    auto k = keys(DataType::long_(), 5000, 0, 2000, 11, rng);
    table.build(rows_of(5000), {k}, {false});
    GpuJoinProbe offload(settings);
    ASSERT_TRUE(offload.prepare(table)) << offload.last_run().fallback_reason;
    EXPECT_TRUE(offload.last_run().on_gpu);
    auto probe = keys(DataType::long_(), 3000, -10, 2010, 13, rng);
    std::vector<int32_t> cpu_p, cpu_b;
    table.probe({probe}, {false}, 3000, cpu_p, cpu_b);
    exec::JoinProbeResult gpu;
    ASSERT_TRUE(offload.probe(table, {probe}, 3000, exec::JoinProbeRequest{}, gpu));
    EXPECT_EQ(gpu.probe_rows, cpu_p);
    EXPECT_EQ(gpu.build_rows, cpu_b);
    EXPECT_EQ(offload.gpu_batches(), 1);
  }
}

/// A build side of `n` rows: every fixed-width type the device gathers (several with nulls), a
/// boolean and, with `with_string`, a string column, which the host gathers.
Batch typed_rows(int64_t n, bool with_string, std::mt19937_64& rng) {
  std::vector<TypePtr> types = {
      DataType::byte(),      DataType::short_(),       DataType::int_(),
      DataType::long_(),     DataType::double_(),      DataType::date(),
      DataType::timestamp(), DataType::decimal(38, 2), DataType::boolean()};
  if (with_string) types.push_back(DataType::string());
  Batch out;
  out.num_rows = n;
  for (size_t t = 0; t < types.size(); ++t) {
    ColumnBuilder b(types[t], n);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      // Columns 1, 3, 5, ... have nulls (one row in 7).
      if (t % 2 == 1 && r % 7 == 0) {
        b.append_null();
        continue;
      }
      int64_t v = static_cast<int64_t>(r >> 20) - (int64_t{1} << 42);
      switch (types[t]->id()) {
        case TypeId::kByte:
          b.append<int8_t>(static_cast<int8_t>(v));
          break;
        case TypeId::kShort:
          b.append<int16_t>(static_cast<int16_t>(v));
          break;
        case TypeId::kInt:
        case TypeId::kDate:
          b.append<int32_t>(static_cast<int32_t>(v));
          break;
        case TypeId::kLong:
        case TypeId::kTimestamp:
          b.append<int64_t>(v);
          break;
        case TypeId::kDouble:
          b.append<double>(static_cast<double>(v) / 3);
          break;
        case TypeId::kDecimal:
          b.append<int128_t>(static_cast<int128_t>(v) * v);
          break;
        case TypeId::kBoolean:
          b.append_bool(v & 1);
          break;
        default:
          b.append_bytes("s" + std::to_string(v));
          break;
      }
    }
    out.columns.push_back(b.finish());
  }
  return out;
}

TEST(GpuJoinProbe, BuildColumnsGatheredOnTheDeviceEqualTheHostGather) {
  EMBER_REQUIRE_GPU();
  GpuSettings settings;
  settings.join_min_build_rows = 1000;
  struct Shape {
    const char* name;
    bool unique, all_hit, with_string;
  };
  for (const Shape& shape : {Shape{"unique keys, every probe row hits", true, true, false},
                             Shape{"unique keys, misses", true, false, true},
                             Shape{"duplicate keys", false, false, false}}) {
    SCOPED_TRACE(shape.name);
    std::mt19937_64 rng(11);
    const int64_t m = 40000, n = 50000;
    ColumnPtr build_key =
        shape.unique ? unique_keys(m, 3, rng) : keys(DataType::long_(), m, 0, 9000, 0, rng);
    exec::JoinHashTable table;
    table.build(typed_rows(m, shape.with_string, rng), {build_key}, {false});
    // Probe keys copied from build rows (all hit), or drawn over a wider range.
    ColumnBuilder pb(DataType::long_(), n);
    for (int64_t i = 0; i < n; ++i) {
      if (shape.all_hit)
        pb.append_from(*build_key, static_cast<int64_t>(rng() % static_cast<uint64_t>(m)));
      else
        pb.append<int64_t>(static_cast<int64_t>(rng() % (shape.unique ? 3 * m + 50 : 9100)));
    }
    ColumnPtr probe = pb.finish();
    GpuJoinProbe offload(settings);
    ASSERT_TRUE(offload.prepare(table)) << offload.last_run().fallback_reason;
    // Booleans and strings stay on the host.
    EXPECT_EQ(offload.device_columns(), 8u);
    std::vector<int32_t> cpu_p, cpu_b;
    table.probe({probe}, {false}, n, cpu_p, cpu_b);
    for (bool need_build_rows : {false, true}) {
      exec::JoinProbeRequest request;
      request.gather_build = true;
      request.need_build_rows = need_build_rows;
      exec::JoinProbeResult gpu;
      ASSERT_TRUE(offload.probe(table, {probe}, n, request, gpu));
      EXPECT_EQ(gpu.probe_rows, cpu_p);
      EXPECT_EQ(gpu.probe_identity, shape.all_hit);
      // Build rows come back only when asked for or needed for a host-gathered column; a
      // boolean column is always there, so they always are here.
      EXPECT_EQ(gpu.build_rows, cpu_b);
      const auto& columns = table.rows().columns;
      ASSERT_EQ(gpu.build_columns.size(), columns.size());
      for (size_t c = 0; c < columns.size(); ++c) {
        SCOPED_TRACE(columns[c]->type()->simple_string());
        if (!DeviceJoinIndex::gathers(*columns[c]->type())) {
          EXPECT_EQ(gpu.build_columns[c], nullptr);
          continue;
        }
        ASSERT_NE(gpu.build_columns[c], nullptr);
        ColumnPtr want = gather(*columns[c], cpu_b.data(), static_cast<int64_t>(cpu_b.size()));
        const Column& got = *gpu.build_columns[c];
        ASSERT_EQ(got.length(), want->length());
        EXPECT_EQ(got.null_count(), want->null_count());
        for (int64_t i = 0; i < got.length(); ++i)
          ASSERT_TRUE(got.value_at(i) == want->value_at(i)) << "row " << i;
      }
    }
  }
}

TEST(GpuJoinProbe, BuildRowsStayOnTheDeviceWhenEveryColumnIsGathered) {
  EMBER_REQUIRE_GPU();
  GpuSettings settings;
  settings.join_min_build_rows = 1000;
  std::mt19937_64 rng(5);
  const int64_t m = 20000, n = 30000;
  ColumnPtr build_key = keys(DataType::long_(), m, 0, 5000, 0, rng);
  exec::JoinHashTable table;
  table.build(Batch({build_key, keys(DataType::int_(), m, -100, 100, 5, rng)}, m), {build_key},
              {false});
  ColumnPtr probe = keys(DataType::long_(), n, -10, 5010, 9, rng);
  GpuJoinProbe offload(settings);
  ASSERT_TRUE(offload.prepare(table)) << offload.last_run().fallback_reason;
  EXPECT_EQ(offload.device_columns(), 2u);
  std::vector<int32_t> cpu_p, cpu_b;
  table.probe({probe}, {false}, n, cpu_p, cpu_b);
  exec::JoinProbeRequest request;
  request.gather_build = true;
  request.need_build_rows = false;
  exec::JoinProbeResult gpu;
  ASSERT_TRUE(offload.probe(table, {probe}, n, request, gpu));
  EXPECT_EQ(gpu.probe_rows, cpu_p);
  EXPECT_TRUE(gpu.build_rows.empty());
  EXPECT_FALSE(gpu.has_build_rows());
  // The same gathered through a pinned staging pool.
  {
    Runtime* runtime = Runtime::get(settings);
    ASSERT_NE(runtime, nullptr);
    Stream stream;
    DeviceMemoryPool pool("test", &runtime->device_pool(), 0);
    DeviceJoinIndex index(table.int_index(), pool, stream);
    std::vector<DeviceColumn> device;
    for (auto& c : table.rows().columns) device.push_back(to_device(*c, pool, stream));
    stream.synchronize();
    PinnedPool pinned(size_t{16} << 20);
    std::vector<int64_t> combined;
    table.combine_int_keys({probe}, n, combined);
    exec::JoinProbeResult staged;
    index.probe(combined.data(), n, request, {&device[0], &device[1]}, pool, stream, staged,
                &pinned);
    EXPECT_EQ(staged.probe_rows, cpu_p);
    EXPECT_EQ(pinned.used(), 0u);
    for (size_t c = 0; c < 2; ++c) {
      ColumnPtr want =
          gather(*table.rows().columns[c], cpu_b.data(), static_cast<int64_t>(cpu_b.size()));
      ASSERT_EQ(staged.build_columns[c]->length(), want->length());
      for (int64_t i = 0; i < want->length(); ++i)
        ASSERT_TRUE(staged.build_columns[c]->value_at(i) == want->value_at(i)) << c << " row " << i;
    }
  }
  // A semi join's request: the probe rows alone.
  exec::JoinProbeRequest semi;
  semi.first_only = true;
  semi.need_build_rows = false;
  exec::JoinProbeResult first;
  ASSERT_TRUE(offload.probe(table, {probe}, n, semi, first));
  std::vector<int32_t> cpu_first_p, cpu_first_b;
  table.probe({probe}, {false}, n, cpu_first_p, cpu_first_b, true);
  EXPECT_EQ(first.probe_rows, cpu_first_p);
  EXPECT_TRUE(first.build_rows.empty() && first.build_columns.empty());
  ASSERT_EQ(gpu.build_columns.size(), 2u);
  for (size_t c = 0; c < 2; ++c) {
    ColumnPtr want =
        gather(*table.rows().columns[c], cpu_b.data(), static_cast<int64_t>(cpu_b.size()));
    ASSERT_EQ(gpu.build_columns[c]->length(), want->length());
    for (int64_t i = 0; i < want->length(); ++i)
      ASSERT_TRUE(gpu.build_columns[c]->value_at(i) == want->value_at(i)) << c << " row " << i;
  }
}

}  // namespace
}  // namespace ember::gpu
