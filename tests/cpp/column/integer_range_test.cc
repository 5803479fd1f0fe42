// integer_range: the smallest and largest valid value among a column's first rows, for every
// integer width, with and without nulls.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "../column_test_util.h"
#include "column/column.h"

namespace ember {
namespace {

using test_util::integral_column;

TEST(IntegerRangeTest, EveryWidthWithAndWithoutNulls) {
  const std::vector<std::pair<TypePtr, int64_t>> types = {
      {DataType::byte(), INT8_MAX}, {DataType::short_(), INT16_MAX}, {DataType::date(), INT32_MAX},
      {DataType::long_(), INT64_MAX}};
  for (const auto& [type, max] : types) {
    const int64_t min = -max - 1;
    std::vector<std::optional<int64_t>> values;
    for (int64_t i = 0; i < 1000; ++i) values.push_back((i * 37) % 101 - 50);
    values[700] = max;  // past the rows asked for below
    values[10] = min;
    for (bool nulls : {false, true}) {
      std::vector<std::optional<int64_t>> v = values;
      if (nulls) {
        v[3] = std::nullopt;
        v[10] = std::nullopt;  // the smallest value is null: it does not count
      }
      ColumnPtr c = integral_column(type, v);
      ASSERT_EQ(c->may_have_nulls(), nulls);
      int64_t lo = 0, hi = 0;
      ASSERT_TRUE(integer_range(*c, 600, lo, hi));
      EXPECT_EQ(lo, nulls ? -50 : min) << type->simple_string();
      EXPECT_EQ(hi, 50) << type->simple_string();
      ASSERT_TRUE(integer_range(*c, 1000, lo, hi));
      EXPECT_EQ(hi, max) << type->simple_string();
      ASSERT_TRUE(integer_range(*c, 1, lo, hi));
      EXPECT_EQ(lo, -50);
      EXPECT_EQ(hi, -50);
    }
    int64_t lo = 0, hi = 0;
    EXPECT_FALSE(integer_range(*integral_column(type, {}), 0, lo, hi));
    EXPECT_FALSE(integer_range(*integral_column(type, {std::nullopt, std::nullopt}), 2, lo, hi));
  }
}

}  // namespace
}  // namespace ember
