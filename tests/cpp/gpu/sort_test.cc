// GpuSort against the CPU sort: every sortable type with nulls, NaN, signed zeros and ties,
// ascending and descending, nulls first and last, several keys, full sorts and top-N. Ties keep
// the input order on both, so the outputs must be identical row for row. Skipped without a GPU.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/operators.h"
#include "gpu/radix_sort.h"
#include "gpu_test_util.h"

namespace ember::gpu {
namespace {

using namespace test_util;

std::vector<TypePtr> sort_types() {
  return {DataType::int_(),      DataType::long_(), DataType::double_(), DataType::float_(),
          DataType::boolean(),   DataType::byte(),  DataType::short_(),  DataType::date(),
          DataType::timestamp(), DataType::string()};
}

/// Few distinct values per column (many ties), nulls everywhere, NaN, +-0.0 and infinities.
std::vector<Batch> sort_batches(int count, int64_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Batch> out;
  for (int b = 0; b < count; ++b) {
    std::vector<TypePtr> types = sort_types();
    std::vector<std::unique_ptr<ColumnBuilder>> cols;
    for (auto& t : types) cols.push_back(std::make_unique<ColumnBuilder>(t, rows));
    for (int64_t i = 0; i < rows; ++i) {
      for (size_t c = 0; c < types.size(); ++c) {
        uint64_t r = rng();
        if (r % 13 == 0) {
          cols[c]->append_null();
          continue;
        }
        int64_t v = static_cast<int64_t>(r >> 8) % 41 - 20;
        switch (c) {
          case 0:
            cols[c]->append<int32_t>(r % 101 == 1 ? INT32_MIN : static_cast<int32_t>(v));
            break;
          case 1:
            cols[c]->append<int64_t>(r % 103 == 1 ? INT64_MIN
                                                  : (r % 107 == 1 ? INT64_MAX : v * 1000003));
            break;
          case 2: {
            double d = static_cast<double>(v) / 4;
            if (r % 31 == 1) d = NAN;
            if (r % 37 == 1) d = -0.0;
            if (r % 41 == 1) d = -INFINITY;
            if (r % 43 == 1) d = INFINITY;
            cols[c]->append<double>(d);
            break;
          }
          case 3:
            cols[c]->append<float>(r % 29 == 1 ? NAN
                                               : (r % 23 == 1 ? -0.0f : static_cast<float>(v) / 3));
            break;
          case 4:
            cols[c]->append_bool(v & 1);
            break;
          case 5:
            cols[c]->append<int8_t>(static_cast<int8_t>(v * 6));
            break;
          case 6:
            cols[c]->append<int16_t>(static_cast<int16_t>(v * 1500));
            break;
          case 7:
            cols[c]->append<int32_t>(static_cast<int32_t>(v * 400));
            break;
          case 8:
            cols[c]->append<int64_t>(v * 86400000000LL);
            break;
          default:
            cols[c]->append_bytes("row" + std::to_string(static_cast<int64_t>(b) * rows + i));
            break;
        }
      }
    }
    Batch batch;
    batch.num_rows = rows;
    batch.index = b;
    for (auto& c : cols) batch.columns.push_back(c->finish());
    out.push_back(std::move(batch));
  }
  return out;
}

std::vector<int> all_columns() {
  std::vector<int> all;
  for (size_t i = 0; i < sort_types().size(); ++i) all.push_back(static_cast<int>(i));
  return all;
}

std::vector<Batch> run_sort(exec::OperatorPtr sort, const std::vector<Batch>& batches,
                            const Config& conf) {
  sort->children.push_back(std::make_unique<exec::LocalScan>(batches, all_columns()));
  MemoryPool pool("test", MemoryPool::root());
  exec::ExecContext ctx;
  ctx.eval.config = &conf;
  ctx.pool = &pool;
  return exec::run_plan(*sort, ctx);
}

std::vector<std::vector<Value>> in_order(const std::vector<Batch>& batches) {
  std::vector<std::vector<Value>> rows;
  for (auto& b : batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      std::vector<Value> r;
      for (auto& c : b.columns) r.push_back(c->value_at(i));
      rows.push_back(std::move(r));
    }
  return rows;
}

void expect_same_order(const std::vector<exec::SortKey>& keys, int64_t limit,
                       const std::vector<Batch>& batches) {
  Config conf;
  conf.set("spark.ember.gpu.minRows", "0");
  auto gpu = std::make_unique<GpuSort>(keys, limit, read_settings(conf));
  GpuSort* g = gpu.get();
  auto got = in_order(run_sort(std::move(gpu), batches, conf));
  EXPECT_TRUE(g->last_run().on_gpu) << g->last_run().fallback_reason;
  auto want = in_order(run_sort(std::make_unique<exec::Sort>(keys, limit), batches, conf));
  ASSERT_EQ(got.size(), want.size());
  // The string column is unique per row: equal rows mean the same permutation.
  for (size_t r = 0; r < got.size(); ++r)
    ASSERT_TRUE(got[r].back() == want[r].back()) << "row " << r;
}

exec::SortKey key(int column, bool ascending, bool nulls_first) {
  return {test_util::column(column, sort_types()[static_cast<size_t>(column)]), ascending,
          nulls_first};
}

TEST(GpuSort, EveryTypeAndDirectionMatchesTheCpu) {
  EMBER_REQUIRE_GPU();
  auto batches = sort_batches(4, 30000, 3);
  for (int c = 0; c < 9; ++c)
    for (bool asc : {true, false})
      for (bool nulls_first : {true, false}) {
        SCOPED_TRACE("column " + std::to_string(c) + (asc ? " asc" : " desc") +
                     (nulls_first ? " nulls first" : " nulls last"));
        expect_same_order({key(c, asc, nulls_first)}, -1, batches);
      }
}

TEST(GpuSort, SeveralKeysAndTopN) {
  EMBER_REQUIRE_GPU();
  auto batches = sort_batches(3, 50000, 9);
  std::vector<exec::SortKey> keys = {key(4, false, true), key(2, true, false), key(0, false, false),
                                     key(6, true, true)};
  expect_same_order(keys, -1, batches);
  expect_same_order(keys, 0, batches);
  expect_same_order(keys, 1000, batches);
  expect_same_order(keys, 1000000, batches);
  // A computed key, evaluated on the host per batch.
  std::vector<exec::SortKey> computed = {
      {call("%", {test_util::column(1, DataType::long_()), i64(7)}), true, true},
      key(3, false, true)};
  expect_same_order(computed, 10, batches);
}

TEST(GpuSort, SmallInputsAndUnsupportedKeysUseTheCpu) {
  EMBER_REQUIRE_GPU();
  EXPECT_FALSE(sortable_on_device(*DataType::string()));
  auto batches = sort_batches(1, 100, 5);
  Config conf;  // minRows 100000
  auto gpu = std::make_unique<GpuSort>(std::vector<exec::SortKey>{key(0, true, true)}, -1,
                                       read_settings(conf));
  GpuSort* g = gpu.get();
  auto got = in_order(run_sort(std::move(gpu), batches, conf));
  EXPECT_FALSE(g->last_run().on_gpu);
  EXPECT_NE(g->last_run().fallback_reason.find("spark.ember.gpu.minRows"), std::string::npos);
  auto want = in_order(
      run_sort(std::make_unique<exec::Sort>(std::vector<exec::SortKey>{key(0, true, true)}, -1),
               batches, conf));
  ASSERT_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size(); ++r) EXPECT_TRUE(got[r].back() == want[r].back());
}

}  // namespace
}  // namespace ember::gpu
