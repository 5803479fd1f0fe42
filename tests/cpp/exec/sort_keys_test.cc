// Normalized sort keys order rows as Spark's sort does: per key direction, nulls first or last,
// -0.0 equal to 0.0, NaN above every number, signed integers across zero, several keys.

#include "exec/sort_keys.h"
#include "exec/row_compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

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


// sort_order against a plain comparator sort, over layouts that encode only part of the keys:
// two longs without nulls (16 bytes, exact), long + long + int (comparator past the prefix),
// strings sharing long prefixes, binary, and nulls in every key.
TEST(SortKeys, SortOrderMatchesComparatorOnPartialLayouts) {
  const int64_t n = 5000;
  ColumnBuilder a(DataType::long_(), n), b(DataType::long_(), n), c(DataType::int_(), n), s(DataType::string(), n),
      bin(DataType::binary(), n), na(DataType::long_(), n);
  for (int64_t i = 0; i < n; ++i) {
    a.append<int64_t>((i * 37) % 11 - 5);
    b.append<int64_t>((i * 13) % 7);
    c.append<int32_t>(static_cast<int32_t>((i * 101) % 5));
    std::string text = "common-prefix-of-length-" + std::to_string((i * 7) % 13);
    if (i % 17 == 0) s.append_null();
    else s.append_bytes((i % 3 == 0) ? text.substr(0, 5 + i % 4) : text);
    std::string raw(static_cast<size_t>(i % 4), static_cast<char>(0xf0 + i % 3));
    bin.append_bytes(raw);
    if (i % 5 == 0) na.append_null();
    else na.append<int64_t>(i % 3);
  }
  std::vector<ColumnPtr> all = {a.finish(), b.finish(), c.finish(), s.finish(), bin.finish(), na.finish()};
  std::vector<TypePtr> types = {DataType::long_(), DataType::long_(), DataType::int_(), DataType::string(),
                                DataType::binary(), DataType::long_()};
  std::vector<std::vector<int>> choices = {{0, 1}, {0, 1, 2}, {3, 0}, {2, 3, 1}, {4, 3}, {5, 0, 1}, {3}};
  for (auto& pick : choices) {
    for (int dir = 0; dir < 4; ++dir) {
      std::vector<NormalizedKeySpec> specs;
      std::vector<ColumnPtr> cols;
      std::vector<bool> asc, nf;
      for (size_t k = 0; k < pick.size(); ++k) {
        bool up = ((dir >> (k % 2)) & 1) == 0;
        bool first = (dir & 1) == 0;
        specs.push_back({types[static_cast<size_t>(pick[k])], up, first});
        cols.push_back(all[static_cast<size_t>(pick[k])]);
        asc.push_back(up);
        nf.push_back(first);
      }
      RowComparator cmp(cols, asc, nf);
      std::vector<int32_t> expected(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) expected[static_cast<size_t>(i)] = static_cast<int32_t>(i);
      std::stable_sort(expected.begin(), expected.end(), [&](int32_t x, int32_t y) { return cmp.less(x, y); });
      EXPECT_EQ(sort_order(specs, cols, n, -1), expected) << "keys " << pick.size() << " dir " << dir;
      std::vector<int32_t> top(expected.begin(), expected.begin() + 25);
      EXPECT_EQ(sort_order(specs, cols, n, 25), top) << "top-N, keys " << pick.size() << " dir " << dir;
    }
  }
}

// sort_order encodes integer columns as their distance from the column's smallest value in the
// bytes their range needs: narrow ranges far from zero, ranges spanning the whole type, constant
// columns, bytes and dates, nulls; every layout against the comparator's stable sort.
TEST(SortKeys, SortOrderOfIntegerRangesMatchesComparator) {
  const int64_t n = 4000;
  ColumnBuilder narrow(DataType::long_(), n), wide(DataType::long_(), n), full_int(DataType::int_(), n),
      tiny(DataType::byte(), n), constant(DataType::int_(), n), day(DataType::date(), n), nulls(DataType::long_(), n);
  for (int64_t i = 0; i < n; ++i) {
    narrow.append<int64_t>(-1'000'000'000'000'000 + (i * 7919) % 300);
    wide.append<int64_t>(i % 3 == 0 ? INT64_MIN + i : i % 3 == 1 ? INT64_MAX - i : (i * 31) % 17 - 8);
    full_int.append<int32_t>(i % 2 ? INT32_MIN + static_cast<int32_t>(i % 5) : INT32_MAX - static_cast<int32_t>(i % 7));
    tiny.append<int8_t>(static_cast<int8_t>((i * 13) % 9 - 4));
    constant.append<int32_t>(42);
    day.append<int32_t>(static_cast<int32_t>(18000 + (i * 11) % 400));
    if (i % 7 == 0) nulls.append_null();
    else nulls.append<int64_t>(70000 + (i * 3) % 1000);
  }
  std::vector<ColumnPtr> all = {narrow.finish(), wide.finish(), full_int.finish(), tiny.finish(),
                                constant.finish(), day.finish(), nulls.finish()};
  std::vector<TypePtr> types = {DataType::long_(), DataType::long_(), DataType::int_(), DataType::byte(),
                                DataType::int_(), DataType::date(), DataType::long_()};
  std::vector<std::vector<int>> choices = {{0, 3, 1}, {3, 5, 0}, {4, 3, 6, 2}, {6, 0, 5}, {2, 1}, {5, 4, 3, 0}};
  for (auto& pick : choices) {
    for (int dir = 0; dir < 4; ++dir) {
      std::vector<NormalizedKeySpec> specs;
      std::vector<ColumnPtr> cols;
      std::vector<bool> asc, nf;
      for (size_t k = 0; k < pick.size(); ++k) {
        const bool up = ((dir >> (k % 2)) & 1) == 0, first = (dir & 1) == 0;
        specs.push_back({types[static_cast<size_t>(pick[k])], up, first});
        cols.push_back(all[static_cast<size_t>(pick[k])]);
        asc.push_back(up);
        nf.push_back(first);
      }
      RowComparator cmp(cols, asc, nf);
      std::vector<int32_t> expected(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) expected[static_cast<size_t>(i)] = static_cast<int32_t>(i);
      std::stable_sort(expected.begin(), expected.end(), [&](int32_t x, int32_t y) { return cmp.less(x, y); });
      EXPECT_EQ(sort_order(specs, cols, n, -1), expected) << "keys " << pick[0] << "... dir " << dir;
      std::vector<int32_t> top(expected.begin(), expected.begin() + 30);
      EXPECT_EQ(sort_order(specs, cols, n, 30), top) << "top-N, keys " << pick[0] << "... dir " << dir;
    }
  }
}

// radix_sort equals std::sort over sizes below and above the parallel threshold and over
// keys that differ in few bits, in high bits only, in a skewed few, or not at all.
TEST(RadixSort, EqualsAComparisonSort) {
  std::mt19937_64 rng(5);
  auto wide = [&] { return (static_cast<NormalizedKey>(rng()) << 64) | rng(); };
  const std::vector<std::pair<const char*, std::function<NormalizedKey(size_t)>>> shapes = {
      {"random", [&](size_t) { return wide(); }},
      {"low bits", [&](size_t) { return static_cast<NormalizedKey>(rng() % 1000); }},
      {"high bits", [&](size_t) { return static_cast<NormalizedKey>(rng() % 7) << 120; }},
      {"row below a key", [&](size_t i) { return (static_cast<NormalizedKey>(rng() % 100) << 56 | (rng() % 1000000)) << 32 | i; }},
      {"skewed", [&](size_t i) { return i % 100 == 0 ? wide() : static_cast<NormalizedKey>(rng() % 50); }},
      {"equal", [&](size_t) { return static_cast<NormalizedKey>(42); }},
  };
  for (size_t n : {0u, 1u, 3000u, 70000u, 300000u}) {
    for (const auto& [name, make] : shapes) {
      std::vector<NormalizedKey> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = make(i);
      std::vector<NormalizedKey> want = keys;
      std::sort(want.begin(), want.end());
      radix_sort(keys);
      EXPECT_TRUE(keys == want) << name << " " << n;
    }
  }
}

}  // namespace
}  // namespace ember::exec
