// JoinHashTable: key equality under `=` and `<=>`, duplicate keys, and chains in build order.

#include "exec/join_hash_table.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>

#include "../column_test_util.h"

namespace ember::exec {
namespace {

ColumnPtr ints(const std::vector<std::optional<int64_t>>& values) {
  return test_util::integral_column(DataType::int_(), values);
}

std::vector<std::pair<int32_t, int32_t>> pairs(const JoinHashTable& t, const ColumnPtr& probe, bool null_safe) {
  std::vector<int32_t> p, b;
  t.probe({probe}, {null_safe}, probe->length(), p, b);
  std::vector<std::pair<int32_t, int32_t>> out;
  for (size_t i = 0; i < p.size(); ++i) out.emplace_back(p[i], b[i]);
  return out;
}

TEST(JoinHashTable, DuplicateKeysMatchInBuildOrder) {
  ColumnPtr keys = ints({7, 3, 7, std::nullopt, 7});
  JoinHashTable t;
  t.build(Batch({keys}, 5), {keys}, {false});
  auto got = pairs(t, ints({7, 1, 3}), false);
  std::vector<std::pair<int32_t, int32_t>> want = {{0, 0}, {0, 2}, {0, 4}, {2, 1}};
  EXPECT_EQ(got, want);
}

TEST(JoinHashTable, NullKeysMatchOnlyWhenNullSafe) {
  ColumnPtr keys = ints({std::nullopt, 1});
  JoinHashTable plain;
  plain.build(Batch({keys}, 2), {keys}, {false});
  EXPECT_TRUE(pairs(plain, ints({std::nullopt}), false).empty());
  JoinHashTable safe;
  safe.build(Batch({keys}, 2), {keys}, {true});
  std::vector<std::pair<int32_t, int32_t>> want = {{0, 0}};
  EXPECT_EQ(pairs(safe, ints({std::nullopt}), true), want);
}

TEST(JoinHashTable, EmptyBuildSideMatchesNothing) {
  ColumnPtr keys = ints({});
  JoinHashTable t;
  t.build(Batch({keys}, 0), {keys}, {false});
  EXPECT_TRUE(pairs(t, ints({1, 2}), false).empty());
}

TEST(JoinHashTable, ManyKeysAllFound) {
  std::vector<std::optional<int64_t>> v;
  for (int32_t i = 0; i < 10000; ++i) v.push_back(i % 4000);
  ColumnPtr keys = ints(v);
  JoinHashTable t;
  t.build(Batch({keys}, 10000), {keys}, {false});
  // Key 0 occurs three times, 3999 twice, 4000 never.
  EXPECT_EQ(pairs(t, ints({0, 3999, 4000}), false).size(), 5u);
}

ColumnPtr longs(const std::vector<std::optional<int64_t>>& values) {
  return test_util::integral_column(DataType::long_(), values);
}

/// Expected pairs by brute force: every (probe, build) with equal non-null keys, in probe order
/// then build order.
std::vector<std::pair<int32_t, int32_t>> brute_force(const std::vector<std::vector<std::optional<int64_t>>>& build,
                                                     const std::vector<std::vector<std::optional<int64_t>>>& probe) {
  std::vector<std::pair<int32_t, int32_t>> out;
  for (size_t i = 0; i < probe[0].size(); ++i)
    for (size_t j = 0; j < build[0].size(); ++j) {
      bool eq = true;
      for (size_t k = 0; k < build.size(); ++k)
        eq &= probe[k][i].has_value() && build[k][j].has_value() && *probe[k][i] == *build[k][j];
      if (eq) out.emplace_back(static_cast<int32_t>(i), static_cast<int32_t>(j));
    }
  return out;
}

/// Builds and probes with random keys drawn from `spread` values around `base`, one or two key
/// columns, with nulls; checks the index form chosen and the matches against brute force.
void check_random(int keys, int64_t base, int64_t spread, int64_t rows, JoinHashTable::Mode want_mode) {
  std::mt19937_64 rng(static_cast<uint64_t>(base + spread + keys));
  auto draw = [&](int64_t n) {
    std::vector<std::vector<std::optional<int64_t>>> cols(static_cast<size_t>(keys));
    for (auto& c : cols)
      for (int64_t i = 0; i < n; ++i) {
        if (rng() % 17 == 0) c.push_back(std::nullopt);
        else c.push_back(base + static_cast<int64_t>(rng() % static_cast<uint64_t>(spread)) * (spread > 1000000 ? 977 : 1));
      }
    return cols;
  };
  auto build = draw(rows), probe = draw(rows / 2 + 3);
  std::vector<ColumnPtr> bcols, pcols;
  for (auto& c : build) bcols.push_back(longs(c));
  for (auto& c : probe) pcols.push_back(longs(c));
  JoinHashTable t;
  t.build(Batch(bcols, rows), bcols, std::vector<bool>(static_cast<size_t>(keys), false));
  EXPECT_EQ(t.mode(), want_mode);
  std::vector<int32_t> p, b;
  t.probe(pcols, std::vector<bool>(static_cast<size_t>(keys), false), pcols[0]->length(), p, b);
  std::vector<std::pair<int32_t, int32_t>> got;
  for (size_t i = 0; i < p.size(); ++i) got.emplace_back(p[i], b[i]);
  EXPECT_EQ(got, brute_force(build, probe));
}

TEST(JoinHashTable, IntegerKeysIndexDirectlyWhenDense) {
  check_random(1, 100, 300, 500, JoinHashTable::Mode::kDirect);
  check_random(1, -50, 40, 500, JoinHashTable::Mode::kDirect);
  check_random(2, 7, 20, 800, JoinHashTable::Mode::kDirect);
}

TEST(JoinHashTable, SparseIntegerKeysHash) {
  check_random(1, -3000000000LL, 5000000, 600, JoinHashTable::Mode::kInt64);
  check_random(2, 1LL << 40, 2000000, 700, JoinHashTable::Mode::kInt64);
}

TEST(JoinHashTable, KeysBeyondSixtyTwoBitsUseThePackedTable) {
  std::vector<std::optional<int64_t>> v = {INT64_MIN, 0, INT64_MAX, 0};
  ColumnPtr keys = longs(v);
  JoinHashTable t;
  t.build(Batch({keys}, 4), {keys}, {false});
  EXPECT_EQ(t.mode(), JoinHashTable::Mode::kPacked);
  std::vector<int32_t> p, b;
  t.probe({longs({0, INT64_MAX, 5})}, {false}, 3, p, b);
  std::vector<int32_t> want_p = {0, 0, 1}, want_b = {1, 3, 2};
  EXPECT_EQ(p, want_p);
  EXPECT_EQ(b, want_b);
}

// A build side of distinct keys matches each probe row once; one repeated key anywhere (the
// first row is indexed last) brings back the chains. Direct, hashed and packed indexes alike.
TEST(JoinHashTable, DistinctAndRepeatedBuildKeysInEveryIndexForm) {
  const std::vector<std::pair<int64_t, JoinHashTable::Mode>> forms = {
      {1, JoinHashTable::Mode::kDirect}, {1000003, JoinHashTable::Mode::kInt64},
      {INT64_MAX / 3, JoinHashTable::Mode::kPacked}};
  for (const auto& [step, mode] : forms) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      std::vector<std::optional<int64_t>> build, probe;
      for (int64_t i = 0; i < 200; ++i) build.push_back(i * (step == INT64_MAX / 3 ? 1 : step) - 100);
      if (mode == JoinHashTable::Mode::kPacked) build.push_back(INT64_MAX), build.push_back(INT64_MIN);
      if (repeat == 1) build[0] = build[150];        // indexed last
      if (repeat == 2) build.back() = build[7];      // indexed first
      for (int64_t i = 0; i < 300; ++i) probe.push_back(build[static_cast<size_t>((i * 37) % build.size())]);
      probe.push_back(std::nullopt);
      ColumnPtr b = longs(build);
      JoinHashTable t;
      t.build(Batch({b}, b->length()), {b}, {false});
      EXPECT_EQ(t.mode(), mode);
      std::vector<int32_t> p, m;
      t.probe({longs(probe)}, {false}, static_cast<int64_t>(probe.size()), p, m);
      std::vector<std::pair<int32_t, int32_t>> got;
      for (size_t i = 0; i < p.size(); ++i) got.emplace_back(p[i], m[i]);
      EXPECT_EQ(got, brute_force({build}, {probe})) << "step " << step << " repeat " << repeat;
    }
  }
}

// `first_only` keeps each matching probe row's first build row, and pairs are appended after
// what the vectors already hold; `unique_keys` tells whether a probe row can match twice.
TEST(JoinHashTable, FirstOnlyAppendsOnePairPerMatchingRow) {
  const std::vector<std::pair<int64_t, JoinHashTable::Mode>> forms = {
      {1, JoinHashTable::Mode::kDirect}, {1000003, JoinHashTable::Mode::kInt64}};
  for (const auto& [step, mode] : forms) {
    for (bool repeated : {false, true}) {
      std::vector<std::optional<int64_t>> build, probe;
      for (int64_t i = 0; i < 100; ++i) build.push_back((repeated ? i % 40 : i) * step);
      build.push_back(std::nullopt);
      for (int64_t i = 0; i < 150; ++i) probe.push_back(i % 9 == 0 ? std::nullopt : std::optional<int64_t>((i % 120) * step));
      ColumnPtr b = longs(build);
      JoinHashTable t;
      t.build(Batch({b}, b->length()), {b}, {false});
      EXPECT_EQ(t.mode(), mode);
      EXPECT_EQ(t.unique_keys(), !repeated);
      std::vector<std::pair<int32_t, int32_t>> want = {{-7, -7}};
      for (auto& pair : brute_force({build}, {probe}))
        if (want.back().first != pair.first) want.push_back(pair);
      std::vector<int32_t> p = {-7}, m = {-7};
      t.probe({longs(probe)}, {false}, static_cast<int64_t>(probe.size()), p, m, /*first_only=*/true);
      std::vector<std::pair<int32_t, int32_t>> got;
      for (size_t i = 0; i < p.size(); ++i) got.emplace_back(p[i], m[i]);
      EXPECT_EQ(got, want) << "step " << step << " repeated " << repeated;
    }
  }
}

// Distinct keys that fill their range are stored in key order when the caller allows it, and
// a probe finds the rows holding its keys; a hole in the range or a repeated key keeps the
// given order.
TEST(JoinHashTable, DenseDistinctKeysMayBeStoredInKeyOrder) {
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<std::optional<int64_t>> build;
    for (int64_t i = 0; i < 500; ++i) build.push_back(1000 + (i * 263) % 500);  // a permutation
    build.insert(build.begin() + 17, std::nullopt);
    if (shape == 1) build[3] = 5000;   // a hole
    if (shape == 2) build[3] = build[4];  // a repeat
    ColumnBuilder payload(DataType::long_());
    for (size_t i = 0; i < build.size(); ++i) payload.append<int64_t>(static_cast<int64_t>(i));
    ColumnPtr b = longs(build);
    JoinHashTable t;
    t.build(Batch({b, payload.finish()}, b->length()), {b}, {false}, /*may_reorder=*/true);
    EXPECT_EQ(t.dense_keys(), shape == 0) << shape;
    const Column& keys = *t.rows().columns[0];
    const Column& ids = *t.rows().columns[1];
    for (int64_t r = 0; r < keys.length(); ++r) {
      const auto& want = build[static_cast<size_t>(ids.values<int64_t>()[r])];
      EXPECT_EQ(keys.is_valid(r), want.has_value());
      if (want) EXPECT_EQ(keys.values<int64_t>()[r], *want);
      if (shape == 0 && r < 500) EXPECT_EQ(keys.values<int64_t>()[r], 1000 + r);
    }
    std::vector<std::optional<int64_t>> probe = {999, 1000, 1499, 1500, std::nullopt, 1234, 5000, 1234};
    std::vector<int32_t> p, m;
    t.probe({longs(probe)}, {false}, static_cast<int64_t>(probe.size()), p, m);
    // The same matches as by brute force over the rows as stored.
    std::vector<std::optional<int64_t>> stored;
    for (int64_t r = 0; r < keys.length(); ++r)
      stored.push_back(keys.is_valid(r) ? std::optional<int64_t>(keys.values<int64_t>()[r]) : std::nullopt);
    std::vector<std::pair<int32_t, int32_t>> got;
    for (size_t i = 0; i < p.size(); ++i) got.emplace_back(p[i], m[i]);
    EXPECT_EQ(got, brute_force({stored}, {probe})) << shape;
  }
}

// A direct index over one key answers from the key's values without combining keys per row:
// keys of every integer width, probe values below, inside and above the build range (the
// width's extremes too), with and without nulls, dense (rows in key order) or with a hole, and
// pairs appended after what the vectors hold.
TEST(JoinHashTable, OneDirectKeyOfEveryWidthMatchesBruteForce) {
  const std::vector<TypePtr> types = {DataType::byte(), DataType::short_(), DataType::int_(), DataType::long_()};
  for (const TypePtr& type : types) {
    const int64_t type_max = type->byte_width() == 1 ? INT8_MAX : type->byte_width() == 2 ? INT16_MAX
                             : type->byte_width() == 4 ? INT32_MAX : INT64_MAX;
    const int64_t type_min = -type_max - 1;
    for (bool hole : {false, true}) {
      for (bool probe_nulls : {false, true}) {
        auto column = [&](const std::vector<std::optional<int64_t>>& values) {
          return test_util::integral_column(type, values);
        };
        std::vector<std::optional<int64_t>> build;
        for (int64_t i = 0; i < 100; ++i) build.push_back(-20 + (i * 31) % 100);  // -20..79, shuffled
        if (hole) build[10] = std::nullopt;
        std::vector<std::optional<int64_t>> probe = {type_min, type_max, -21, -20, 79, 80, 0, 5, 5};
        for (int64_t i = 0; i < 200; ++i)
          probe.push_back(probe_nulls && i % 13 == 0 ? std::nullopt : std::optional<int64_t>((i * 7) % 130 - 30));
        ColumnBuilder payload(DataType::long_());
        for (size_t i = 0; i < build.size(); ++i) payload.append<int64_t>(static_cast<int64_t>(i));
        ColumnPtr b = column(build);
        JoinHashTable t;
        t.build(Batch({b, payload.finish()}, b->length()), {b}, {false}, /*may_reorder=*/true);
        EXPECT_EQ(t.mode(), JoinHashTable::Mode::kDirect);
        EXPECT_EQ(t.dense_keys(), !hole);
        const Column& ids = *t.rows().columns[1];
        std::vector<std::optional<int64_t>> stored;
        for (int64_t r = 0; r < ids.length(); ++r) stored.push_back(build[static_cast<size_t>(ids.values<int64_t>()[r])]);
        std::vector<std::pair<int32_t, int32_t>> want = {{-7, -7}};
        for (auto& pair : brute_force({stored}, {probe})) want.push_back(pair);
        for (bool first_only : {false, true}) {
          std::vector<int32_t> p = {-7}, m = {-7};
          t.probe({column(probe)}, {false}, static_cast<int64_t>(probe.size()), p, m, first_only);
          std::vector<std::pair<int32_t, int32_t>> got;
          for (size_t i = 0; i < p.size(); ++i) got.emplace_back(p[i], m[i]);
          EXPECT_EQ(got, want) << type->simple_string() << " hole " << hole << " nulls " << probe_nulls;
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::exec
