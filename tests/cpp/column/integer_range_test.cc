// integer_range: the smallest and largest valid value among a column's first rows, for every
// integer width, with and without nulls.

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "column/column.h"

namespace ember {
namespace {

ColumnPtr column_of(const TypePtr& type, const std::vector<std::optional<int64_t>>& values) {
  ColumnBuilder b(type);
  for (const auto& v : values) {
    if (!v) b.append_null();
    else if (type->byte_width() == 1) b.append<int8_t>(static_cast<int8_t>(*v));
    else if (type->byte_width() == 2) b.append<int16_t>(static_cast<int16_t>(*v));
    else if (type->byte_width() == 4) b.append<int32_t>(static_cast<int32_t>(*v));
    else b.append<int64_t>(*v);
  }
  return b.finish();
}

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
      ColumnPtr c = column_of(type, v);
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
    EXPECT_FALSE(integer_range(*column_of(type, {}), 0, lo, hi));
    EXPECT_FALSE(integer_range(*column_of(type, {std::nullopt, std::nullopt}), 2, lo, hi));
  }
}

}  // namespace
}  // namespace ember
