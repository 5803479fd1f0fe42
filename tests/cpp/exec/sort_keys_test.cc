// Normalized sort keys order rows as Spark's sort does: per key direction, nulls first or last,
// -0.0 equal to 0.0, NaN above every number, signed integers across zero, several keys.

#include "exec/sort_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ember::exec {
namespace {

template <typename T>
ColumnPtr column(const TypePtr& type, const std::vector<std::optional<T>>& values) {
  ColumnBuilder b(type);
  for (auto& v : values) {
    if (v) b.append<T>(*v);
    else b.append_null();
  }
  return b.finish();
}

std::vector<uint32_t> order(const std::vector<NormalizedKeySpec>& specs, const std::vector<ColumnPtr>& cols) {
  int64_t n = cols[0]->length();
  std::vector<NormalizedKey> keys(static_cast<size_t>(n));
  encode_normalized_keys(specs, cols, 0, n, keys.data());
  std::vector<SortEntry> entries;
  for (int64_t i = 0; i < n; ++i) entries.push_back({keys[static_cast<size_t>(i)], static_cast<uint32_t>(i)});
  parallel_sort(entries);
  std::vector<uint32_t> rows;
  for (auto& e : entries) rows.push_back(e.row);
  return rows;
}

TEST(SortKeys, DoublesFollowSparksOrdering) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  ColumnPtr d = column<double>(DataType::double_(), {1.5, nan, -0.0, std::nullopt, -inf, 0.0, inf, -2.0});
  EXPECT_EQ(order({{DataType::double_(), true, true}}, {d}), (std::vector<uint32_t>{3, 4, 7, 2, 5, 0, 6, 1}));
  EXPECT_EQ(order({{DataType::double_(), false, false}}, {d}), (std::vector<uint32_t>{1, 6, 0, 2, 5, 7, 4, 3}));
}

TEST(SortKeys, IntegersAcrossZeroAndSeveralKeys) {
  ColumnPtr a = column<int32_t>(DataType::int_(), {2, -1, 2, std::nullopt, -1, INT32_MIN});
  ColumnPtr b = column<int64_t>(DataType::long_(), {5, 7, -3, 1, std::nullopt, 0});
  // a ASC NULLS LAST, b DESC NULLS FIRST; ties keep input order.
  EXPECT_EQ(order({{DataType::int_(), true, false}, {DataType::long_(), false, true}}, {a, b}),
            (std::vector<uint32_t>{5, 4, 1, 0, 2, 3}));
  EXPECT_TRUE(normalized_keys_fit({{DataType::int_(), true, true}, {DataType::long_(), true, true}}));
  EXPECT_FALSE(normalized_keys_fit({{DataType::long_(), true, true}, {DataType::long_(), true, true}}));
  EXPECT_FALSE(normalized_keys_fit({{DataType::string(), true, true}}));
}

TEST(SortKeys, ParallelSortIsStableOnLargeInputs) {
  const int64_t n = 300000;
  ColumnBuilder b(DataType::int_(), n);
  for (int64_t i = 0; i < n; ++i) b.append<int32_t>(static_cast<int32_t>((i * 7919) % 1000));
  ColumnPtr c = b.finish();
  auto rows = order({{DataType::int_(), true, true}}, {c});
  for (size_t i = 1; i < rows.size(); ++i) {
    int32_t x = c->values<int32_t>()[rows[i - 1]], y = c->values<int32_t>()[rows[i]];
    ASSERT_TRUE(x < y || (x == y && rows[i - 1] < rows[i])) << i;
  }
}

}  // namespace
}  // namespace ember::exec
