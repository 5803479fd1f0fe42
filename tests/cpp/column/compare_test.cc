#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "column/compare.h"

namespace ember {
namespace {

// The Value ordering agrees with the row ordering of columns holding the same values: structs
// field by field, arrays element by element then by length, nulls first, NaN above every
// number, -0.0 equal to 0.0.
TEST(CompareValuesTest, AgreesWithTheRowOrdering) {
  TypePtr element = DataType::struct_({{"a", DataType::double_(), true, "{}"}, {"b", DataType::string(), true, "{}"}});
  TypePtr type = DataType::array(element, true);
  auto st = [](Value a, Value b) { return Value::list({std::move(a), std::move(b)}); };
  const double nan = std::nan("");
  std::vector<Value> values = {
      Value::list({}),
      Value::list({Value()}),
      Value::list({st(Value(), Value::bytes("x"))}),
      Value::list({st(Value::floating(-0.0), Value::bytes("b"))}),
      Value::list({st(Value::floating(0.0), Value::bytes("b"))}),
      Value::list({st(Value::floating(0.0), Value::bytes("b")), Value()}),
      Value::list({st(Value::floating(1.5), Value())}),
      Value::list({st(Value::floating(nan), Value::bytes("a"))}),
  };
  ColumnBuilder b(type);
  for (const auto& v : values) b.append_value(v);
  ColumnPtr column = b.finish();
  ValueCompare rows = value_comparator(column);
  for (size_t i = 0; i < values.size(); ++i)
    for (size_t j = 0; j < values.size(); ++j)
      EXPECT_EQ(compare_values(values[i], values[j], *type), rows(static_cast<int64_t>(i), static_cast<int64_t>(j)))
          << i << " vs " << j;
  EXPECT_EQ(compare_values(values[3], values[4], *type), 0);
  EXPECT_LT(compare_values(values[4], values[5], *type), 0);
  EXPECT_GT(compare_values(values[7], values[6], *type), 0);
}

TEST(CompareValuesTest, OrderableTypes) {
  EXPECT_TRUE(orderable(*DataType::struct_({{"a", DataType::array(DataType::int_(), true), true, "{}"}})));
  EXPECT_FALSE(orderable(*DataType::map(DataType::string(), DataType::int_(), true)));
  EXPECT_FALSE(orderable(*DataType::array(DataType::map(DataType::string(), DataType::int_(), true), true)));
  EXPECT_FALSE(orderable(*DataType::struct_({{"m", DataType::map(DataType::int_(), DataType::int_(), true), true, "{}"}})));
}

}  // namespace
}  // namespace ember
