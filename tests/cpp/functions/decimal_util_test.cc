// Decimal arithmetic helpers: HALF_UP rounding at every scale change, the 256-bit paths of
// products and quotients that leave 128 bits, and Spark's precision-loss rule.

#include "functions/decimal_util.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace ember::functions {
namespace {

int128_t parse(const char* digits) {
  int128_t v = 0;
  bool neg = *digits == '-';
  for (const char* p = digits + (neg ? 1 : 0); *p; ++p) v = v * 10 + (*p - '0');
  return neg ? -v : v;
}

TEST(DecimalUtil, RescaleRoundsHalfUpAwayFromZero) {
  int128_t out;
  ASSERT_TRUE(decimal_rescale(1005, 3, 2, &out));
  EXPECT_EQ(out, 101);
  ASSERT_TRUE(decimal_rescale(-1005, 3, 2, &out));
  EXPECT_EQ(out, -101);
  ASSERT_TRUE(decimal_rescale(1004, 3, 2, &out));
  EXPECT_EQ(out, 100);
  ASSERT_TRUE(decimal_rescale(15, 1, 4, &out));
  EXPECT_EQ(out, 15000);
  ASSERT_TRUE(decimal_rescale(parse("99999999999999999999999999999999999999"), 0, 50, &out) == false);
  ASSERT_TRUE(decimal_rescale(parse("99999999999999999999999999999999999999"), 45, 0, &out));
  EXPECT_EQ(out, 0);
}

TEST(DecimalUtil, FitsChecksPrecision) {
  EXPECT_TRUE(decimal_fits(999, 3));
  EXPECT_FALSE(decimal_fits(1000, 3));
  EXPECT_FALSE(decimal_fits(-1000, 3));
  EXPECT_TRUE(decimal_fits(parse("99999999999999999999999999999999999999"), 38));
}

TEST(DecimalUtil, MultiplyBeyond128BitsRoundsTheExactProduct) {
  // (10^37 + 5) * 3 * 10^18 / 10^20 at HALF_UP: the product needs about 190 bits.
  int128_t a = parse("10000000000000000000000000000000000005");
  int128_t b = parse("3000000000000000000");
  int128_t out;
  ASSERT_TRUE(decimal_multiply(a, b, 20, &out));
  EXPECT_EQ(out, parse("300000000000000000000000000000000000"));  // ...00015 / 100 rounds down
  ASSERT_TRUE(decimal_multiply(-a, b, 19, &out));
  EXPECT_EQ(out, parse("-3000000000000000000000000000000000002"));  // ...0015 → -...002
  EXPECT_FALSE(decimal_multiply(a, b, 0, &out));
}

TEST(DecimalUtil, DivideScalesTheDividendOrTheDivisor) {
  int128_t out;
  ASSERT_TRUE(decimal_divide(10, 3, 6, &out));  // 10/3 at scale 6
  EXPECT_EQ(out, 3333333);
  ASSERT_TRUE(decimal_divide(20, 3, 6, &out));
  EXPECT_EQ(out, 6666667);
  ASSERT_TRUE(decimal_divide(-20, 3, 6, &out));
  EXPECT_EQ(out, -6666667);
  ASSERT_TRUE(decimal_divide(12345, 100, -2, &out));  // 12345 / (100 * 100) = 1.2345 → 1
  EXPECT_EQ(out, 1);
  // A dividend scaled past 128 bits: 10^38 / 7 * 10^20.
  ASSERT_TRUE(decimal_divide(parse("10000000000000000000"), 7, 18, &out));
  EXPECT_EQ(out, parse("1428571428571428571428571428571428571"));
}

TEST(DecimalUtil, AddRoundsSumsBeyond128Bits) {
  const int128_t max = parse("99999999999999999999999999999999999999");
  int128_t out;
  // -max - max at scale 18 needs 39 digits; at scale 17 it is -2 * 10^37 exactly (HALF_UP).
  ASSERT_TRUE(decimal_add(-max, 18, -max, 18, 17, &out));
  EXPECT_EQ(out, parse("-20000000000000000000000000000000000000"));
  // 10^25 (scale 0) + 10^-18 at scale 6: the sum at scale 18 needs more than 128 bits.
  ASSERT_TRUE(decimal_add(parse("10000000000000000000000000"), 0, 1, 18, 6, &out));
  EXPECT_EQ(out, parse("10000000000000000000000000000000"));
  ASSERT_TRUE(decimal_add(parse("99999999999999999999999999999999"), 0, parse("500000000001"), 18, 6, &out));
  EXPECT_EQ(out, parse("99999999999999999999999999999999000001"));
  EXPECT_FALSE(decimal_add(max, 18, max, 18, 18, &out));
  ASSERT_TRUE(decimal_add(15, 1, -25, 1, 0, &out));  // 1.5 - 2.5
  EXPECT_EQ(out, -1);
}

TEST(DecimalUtil, NegateRoundsToThirtyFourDigitsHalfEven) {
  EXPECT_EQ(decimal_negate(parse("1234567890123456789012345678901234567"), 38, 18),
            parse("-1234567890123456789012345678901235000"));
  EXPECT_EQ(decimal_negate(parse("-1234567890123456789012345678901234500"), 38, 18),
            parse("1234567890123456789012345678901234000"));
  EXPECT_EQ(decimal_negate(parse("-1234567890123456789012345678901233500"), 38, 18),
            parse("1234567890123456789012345678901234000"));
  EXPECT_EQ(decimal_negate(parse("-123456789012345678901234567890123"), 38, 18),
            parse("123456789012345678901234567890123"));
  EXPECT_EQ(decimal_negate(-5, 10, 2), 5);
  try {
    decimal_negate(-parse("99999999999999999999999999999999999999"), 38, 18);
    FAIL() << "expected an out-of-range error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION");
    EXPECT_NE(std::string(e.what()).find("The 100000000000000000000.000000000000000000 rounded half up from "
                                         "100000000000000000000.0000000000000 cannot"),
              std::string::npos)
        << e.what();
  }
}

TEST(DecimalUtil, JavaDecimalStringUsesScientificNotationAsBigDecimal) {
  EXPECT_EQ(java_decimal_string(0, 18), "0E-18");
  EXPECT_EQ(java_decimal_string(1, 18), "1E-18");
  EXPECT_EQ(java_decimal_string(-15, 7), "-0.0000015");
  EXPECT_EQ(java_decimal_string(-15, 8), "-1.5E-7");
  EXPECT_EQ(java_decimal_string(12345, 2), "123.45");
  EXPECT_EQ(java_decimal_string(1000, -2), "1.000E+5");
  EXPECT_EQ(java_decimal_string(7, -3), "7E+3");
}

TEST(DecimalUtil, AdjustedTypesKeepIntegralDigits) {
  EXPECT_EQ(decimal_adjusted(38, 10)->sql(), "DECIMAL(38,10)");
  EXPECT_EQ(decimal_adjusted(77, 20)->sql(), "DECIMAL(38,6)");
  EXPECT_EQ(decimal_adjusted(40, 4)->sql(), "DECIMAL(38,4)");
  EXPECT_EQ(decimal_adjusted(50, 20)->sql(), "DECIMAL(38,8)");
}

}  // namespace
}  // namespace ember::functions
