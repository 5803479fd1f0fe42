#include "common/number_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ember {
namespace {

TEST(JavaDoubleString, PlainAndScientificForms) {
  EXPECT_EQ(java_double_string(1.0), "1.0");
  EXPECT_EQ(java_double_string(0.001), "0.001");
  EXPECT_EQ(java_double_string(1234567.0), "1234567.0");
  EXPECT_EQ(java_double_string(1e7), "1.0E7");
  EXPECT_EQ(java_double_string(1.5e-4), "1.5E-4");
  EXPECT_EQ(java_double_string(-0.0), "-0.0");
  EXPECT_EQ(java_double_string(std::numeric_limits<double>::max()), "1.7976931348623157E308");
  EXPECT_EQ(java_double_string(NAN), "NaN");
  EXPECT_EQ(java_double_string(-INFINITY), "-Infinity");
}

// Where the shortest digits are one, Java 17 prints the nearest two-digit decimal for
// subnormals: 4.9E-324 and 1.4E-45, not 5.0E-324 and 1.0E-45; a double whose one digit starts a
// higher decade keeps it (twice Double.MIN_VALUE is 1.0E-323, as Spark's KLL sketch text shows).
TEST(JavaDoubleString, SubnormalsTakeTwoDigits) {
  EXPECT_EQ(java_double_string(std::numeric_limits<double>::denorm_min()), "4.9E-324");
  EXPECT_EQ(java_double_string(-std::numeric_limits<double>::denorm_min()), "-4.9E-324");
  EXPECT_EQ(java_double_string(2 * std::numeric_limits<double>::denorm_min()), "1.0E-323");
  EXPECT_EQ(java_double_string(10 * std::numeric_limits<double>::denorm_min()), "4.9E-323");
  EXPECT_EQ(java_double_string(3 * std::numeric_limits<double>::denorm_min()), "1.5E-323");
  EXPECT_EQ(java_float_string(std::numeric_limits<float>::denorm_min()), "1.4E-45");
  EXPECT_EQ(java_float_string(2 * std::numeric_limits<float>::denorm_min()), "2.8E-45");
  EXPECT_EQ(java_float_string(5 * std::numeric_limits<float>::denorm_min()), "7.0E-45");
  EXPECT_EQ(java_float_string(7 * std::numeric_limits<float>::denorm_min()), "9.8E-45");
  // Values whose one digit is exact keep it.
  EXPECT_EQ(java_double_string(5e-3), "0.005");
  EXPECT_EQ(java_double_string(1e22), "1.0E22");
  EXPECT_EQ(java_float_string(2e-5f), "2.0E-5");
}

}  // namespace
}  // namespace ember
