// JoinHashTable: key equality under `=` and `<=>`, duplicate keys, and chains in build order.

#include "exec/join_hash_table.h"

#include <gtest/gtest.h>

#include <optional>

namespace ember::exec {
namespace {

ColumnPtr ints(const std::vector<std::optional<int32_t>>& values) {
  ColumnBuilder b(DataType::int_());
  for (auto& v : values) {
    if (v) b.append<int32_t>(*v);
    else b.append_null();
  }
  return b.finish();
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
  std::vector<std::optional<int32_t>> v;
  for (int32_t i = 0; i < 10000; ++i) v.push_back(i % 4000);
  ColumnPtr keys = ints(v);
  JoinHashTable t;
  t.build(Batch({keys}, 10000), {keys}, {false});
  // Key 0 occurs three times, 3999 twice, 4000 never.
  EXPECT_EQ(pairs(t, ints({0, 3999, 4000}), false).size(), 5u);
}

}  // namespace
}  // namespace ember::exec
