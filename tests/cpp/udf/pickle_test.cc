// The pickle writer's bytes for constants handed to Python (the analyze worker): each opcode
// as pickle protocol 3 defines it. The Python tests load them in a real worker.

#include "udf/pickle.h"

#include <gtest/gtest.h>

namespace ember::udf {
namespace {

std::string pickled(const Value& v, const TypePtr& t) {
  auto p = pickle_value(v, *t);
  EXPECT_TRUE(p.has_value());
  return p.value_or("");
}

std::string framed(const std::string& body) { return std::string("\x80\x03", 2) + body + "."; }

TEST(Pickle, IntegersAsLong1WithTheFewestBytes) {
  EXPECT_EQ(pickled(Value::integer(0), DataType::long_()), framed(std::string("\x8a\x00", 2)));
  EXPECT_EQ(pickled(Value::integer(1), DataType::int_()), framed("\x8a\x01\x01"));
  EXPECT_EQ(pickled(Value::integer(127), DataType::int_()), framed("\x8a\x01\x7f"));
  EXPECT_EQ(pickled(Value::integer(128), DataType::int_()), framed(std::string("\x8a\x02\x80\x00", 4)));
  EXPECT_EQ(pickled(Value::integer(-1), DataType::int_()), framed("\x8a\x01\xff"));
  EXPECT_EQ(pickled(Value::integer(-129), DataType::int_()), framed("\x8a\x02\x7f\xff"));
  EXPECT_EQ(pickled(Value::integer(INT64_MIN), DataType::long_()),
            framed(std::string("\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80", 10)));
}

TEST(Pickle, ScalarsAndNestedValues) {
  EXPECT_EQ(pickled(Value(), DataType::int_()), framed("N"));
  EXPECT_EQ(pickled(Value::boolean(true), DataType::boolean()), framed("\x88"));
  EXPECT_EQ(pickled(Value::floating(1.5), DataType::double_()), framed(std::string("G\x3f\xf8\0\0\0\0\0\0", 9)));
  EXPECT_EQ(pickled(Value::bytes("hé"), DataType::string()), framed(std::string("X\x03\0\0\0h\xc3\xa9", 8)));
  EXPECT_EQ(pickled(Value::decimal(-1), DataType::decimal(3, 3)),
            framed(std::string("cdecimal\nDecimal\nX\x06\0\0\0-0.001\x85R", 30)));
  EXPECT_EQ(pickled(Value::list({}), DataType::array(DataType::int_())), framed("]"));
  EXPECT_EQ(pickled(Value::list({Value::integer(1), Value()}), DataType::array(DataType::int_())),
            framed("](\x8a\x01\x01Ne"));
}

TEST(Pickle, TypesWithoutAPythonFormAreNotConstants) {
  EXPECT_FALSE(pickle_value(Value::integer(5), *DataType::day_time_interval()).has_value());
  EXPECT_FALSE(pickle_value(Value::list({Value::integer(5)}), *DataType::array(DataType::day_time_interval()))
                   .has_value());
}

}  // namespace
}  // namespace ember::udf
