// The pieces of the collection functions that queries reach only partly: value ordering across
// two columns (NaN, -0.0, nested nulls), first-occurrence distinct, and map building under both
// duplicate-key policies.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "column/compare.h"
#include "common/config.h"
#include "common/error.h"
#include "functions/collection_util.h"

namespace ember::functions {
namespace {

ColumnPtr doubles(const std::vector<double>& values) {
  ColumnBuilder b(DataType::double_());
  for (double v : values) b.append<double>(v);
  return b.finish();
}

ColumnPtr int_arrays(const std::vector<std::vector<std::optional<int>>>& rows) {
  ColumnBuilder b(DataType::array(DataType::int_()));
  for (auto& row : rows) {
    for (auto& v : row) {
      if (v) b.child(0).append<int32_t>(*v);
      else b.child(0).append_null();
    }
    b.close_list();
  }
  return b.finish();
}

TEST(Collections, ComparesAcrossColumnsInSparkOrder) {
  ColumnPtr a = doubles({NAN, -0.0, 1.0, 2.0});
  ColumnPtr b = doubles({NAN, 0.0, 5.0, 1.0});
  ValueCompare cmp = value_comparator(a, b);
  EXPECT_EQ(cmp(0, 0), 0);  // NaN equals NaN
  EXPECT_EQ(cmp(1, 1), 0);  // -0.0 equals 0.0
  EXPECT_LT(cmp(2, 2), 0);
  EXPECT_GT(cmp(0, 3), 0);  // NaN above every number
  EXPECT_GT(cmp(3, 3), 0);
}

TEST(Collections, ComparesArraysElementByElementNullsFirst) {
  ColumnPtr x = int_arrays({{1, std::nullopt}, {1, 2}, {1}});
  ColumnPtr y = int_arrays({{1, 0}, {1, 2, 3}, {1}});
  ValueCompare cmp = value_comparator(x, y);
  EXPECT_LT(cmp(0, 0), 0);  // a null element sorts before a value
  EXPECT_LT(cmp(1, 1), 0);  // a prefix sorts first
  EXPECT_EQ(cmp(2, 2), 0);
}

TEST(Collections, DistinctKeepsFirstOccurrencesInOrder) {
  ColumnPtr arr = int_arrays({{3, 1, std::nullopt, 3, std::nullopt, 1, 2}});
  const ColumnPtr& elems = arr->child(0);
  std::vector<int32_t> keep = distinct_positions(*elems, value_comparator(elems), 0, 7);
  EXPECT_EQ(keep, (std::vector<int32_t>{0, 1, 2, 6}));
}

TEST(Collections, BuildMapRejectsOrReplacesDuplicateKeys) {
  ColumnPtr keys = int_arrays({{1, 2, 1}})->child(0);
  ColumnPtr values = doubles({10, 20, 30});
  TypePtr type = DataType::map(DataType::int_(), DataType::double_(), false);
  std::vector<int32_t> offsets = {0, 3};
  EvalContext ctx;
  try {
    build_map(type, 1, offsets, keys, values, nullptr, ctx);
    FAIL() << "duplicate key accepted";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "DUPLICATED_MAP_KEY");
  }
  Config conf;
  conf.set("spark.sql.mapKeyDedupPolicy", "LAST_WIN");
  ctx.config = &conf;
  ColumnPtr m = build_map(type, 1, offsets, keys, values, nullptr, ctx);
  ASSERT_EQ(m->offsets()[1], 2);
  const ColumnPtr& entries = m->child(0);
  EXPECT_EQ(entries->child(0)->values<int32_t>()[0], 1);
  EXPECT_EQ(entries->child(1)->values<double>()[0], 30);  // the last value, at the first key's place
  EXPECT_EQ(entries->child(1)->values<double>()[1], 20);
}

}  // namespace
}  // namespace ember::functions
