#include "common/locale.h"
#include "io/text_parse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "column/value.h"

namespace ember::io {
namespace {

TEST(TextParseTest, IntegersAsJavaParsesThem) {
  int64_t v = 0;
  EXPECT_TRUE(parse_java_integer("+3", INT32_MIN, INT32_MAX, &v));
  EXPECT_EQ(v, 3);
  EXPECT_TRUE(parse_java_integer("-0", INT32_MIN, INT32_MAX, &v));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(parse_java_integer("007", INT32_MIN, INT32_MAX, &v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(parse_java_integer("-9223372036854775808", INT64_MIN, INT64_MAX, &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(parse_java_integer("2147483647", INT32_MIN, INT32_MAX, &v));
  for (const char* bad : {"", "+", "-", " 1", "1 ", "1.0", "1e2", "2147483648", "1_0", "0x10", "１"}) {
    EXPECT_FALSE(parse_java_integer(bad, INT32_MIN, INT32_MAX, &v)) << bad;
  }
  EXPECT_FALSE(parse_java_integer("9223372036854775808", INT64_MIN, INT64_MAX, &v));
  EXPECT_FALSE(parse_java_integer("128", INT8_MIN, INT8_MAX, &v));
}

TEST(TextParseTest, DoublesAsJavaParsesThem) {
  double d = 0;
  struct Case {
    const char* text;
    double value;
  } ok[] = {
      {"1.5", 1.5},       {" 1.5 ", 1.5},   {"+1.5", 1.5},    {"-0.25", -0.25}, {".5", 0.5},
      {"1.", 1.0},        {"1e10", 1e10},   {"1E-3", 1e-3},   {"1.5d", 1.5},    {"2.5f", 2.5},
      {"0x1p3", 8.0},     {"0x1.8p1", 3.0}, {"1e400", INFINITY}, {"-1e400", -INFINITY},
      {"1e-400", 0.0},    {"Infinity", INFINITY}, {"-Infinity", -INFINITY},
      {"0.1", 0.1},       {"123456789012345678901234567890", 1.2345678901234568e29},
      {"3.4028235E39", 3.4028235e39}, {"4.9e-324", 4.9e-324},
  };
  for (const auto& c : ok) {
    ASSERT_TRUE(parse_java_double(c.text, &d)) << c.text;
    EXPECT_EQ(d, c.value) << c.text;
  }
  ASSERT_TRUE(parse_java_double("NaN", &d));
  EXPECT_TRUE(std::isnan(d));
  for (const char* bad : {"", "nan", "inf", "Inf", "+Inf", "1,5", "0x10", "1e", "e5", ".", "1.5x",
                          "--1", "1.5dd", "d"}) {
    EXPECT_FALSE(parse_java_double(bad, &d)) << bad;
  }
  float f = 0;
  ASSERT_TRUE(parse_java_float("3.4028235E39", &f));
  EXPECT_TRUE(std::isinf(f));
  ASSERT_TRUE(parse_java_float("0.1", &f));
  EXPECT_EQ(f, 0.1f);
  ASSERT_TRUE(parse_java_float("16777217", &f));  // rounds once, to nearest even
  EXPECT_EQ(f, 16777216.0f);
}

TEST(TextParseTest, Booleans) {
  bool b = false;
  EXPECT_TRUE(parse_java_boolean("TRUE", &b) && b);
  EXPECT_TRUE(parse_java_boolean("tRuE", &b) && b);
  EXPECT_TRUE(parse_java_boolean("false", &b) && !b);
  for (const char* bad : {"", "1", "yes", " true", "t"}) EXPECT_FALSE(parse_java_boolean(bad, &b)) << bad;
}

TEST(TextParseTest, BigDecimalPrecisionAndScale) {
  DecimalText t;
  ASSERT_TRUE(parse_big_decimal("12345678901234567890", &t));
  EXPECT_EQ(t.precision, 20);
  EXPECT_EQ(t.scale, 0);
  ASSERT_TRUE(parse_big_decimal("1.", &t));
  EXPECT_EQ(t.precision, 1);
  EXPECT_EQ(t.scale, 0);
  ASSERT_TRUE(parse_big_decimal("0.00", &t));
  EXPECT_EQ(t.precision, 1);
  EXPECT_EQ(t.scale, 2);
  ASSERT_TRUE(parse_big_decimal("1e10", &t));
  EXPECT_EQ(t.scale, -10);
  ASSERT_TRUE(parse_big_decimal("-0012.50", &t));
  EXPECT_EQ(t.precision, 4);
  EXPECT_EQ(t.scale, 2);
  for (const char* bad : {"", "+", ".", "1,000", "1e", "NaN", " 1", "1 "}) {
    EXPECT_FALSE(parse_big_decimal(bad, &t)) << bad;
  }
}

TEST(TextParseTest, DecimalsRoundHalfUp) {
  auto dec = [](const char* s, int p, int sc) -> std::string {
    int128_t v;
    if (!parse_decimal(s, p, sc, true, &v)) return "null";
    return decimal_to_string(v, sc);
  };
  EXPECT_EQ(dec("1.005", 10, 2), "1.01");
  EXPECT_EQ(dec("-0.005", 10, 2), "-0.01");
  EXPECT_EQ(dec("0.125", 10, 2), "0.13");
  EXPECT_EQ(dec("2.5", 3, 0), "3");
  EXPECT_EQ(dec("-1.5", 3, 0), "-2");
  EXPECT_EQ(dec("1,234.5", 10, 2), "1234.50");
  EXPECT_EQ(dec("1e2", 10, 2), "100.00");
  EXPECT_EQ(dec("1e-3", 10, 2), "0.00");
  EXPECT_EQ(dec("5.", 10, 2), "5.00");
  EXPECT_EQ(dec("99999999.995", 10, 2), "null");  // rounds to 11 digits
  EXPECT_EQ(dec("99999999.995", 38, 10), "99999999.9950000000");
  EXPECT_EQ(dec("123456789.123", 10, 2), "null");
  EXPECT_EQ(dec(" 1", 10, 2), "null");
  EXPECT_EQ(dec("12345678901234567890123456789012345678", 38, 0),
            "12345678901234567890123456789012345678");
  EXPECT_EQ(dec("123456789012345678901234567890123456789", 38, 0), "null");
  EXPECT_EQ(dec("1e1000000", 38, 0), "null");
  EXPECT_EQ(dec("1e-1000000", 38, 0), "0");
}

TEST(TextParseTest, LocaleNumberText) {
  auto text = [](const char* tag, const char* s) {
    std::string out;
    return locale_number_text(s, *find_locale(tag), &out) ? out : std::string("<invalid>");
  };
  EXPECT_EQ(text("de-DE", "1.234,5"), "1234.5");
  EXPECT_EQ(text("de-DE", "-1.234.567,891"), "-1234567.891");
  EXPECT_EQ(text("de-DE", "1,5E-2"), "1.5E-2");
  EXPECT_EQ(text("de-DE", "12,"), "12.");
  EXPECT_EQ(text("de-DE", "1,2,3"), "<invalid>");   // a second decimal separator
  EXPECT_EQ(text("de-DE", "1.234.5"), "12345");     // grouping anywhere between digits
  EXPECT_EQ(text("de-DE", ".5"), "<invalid>");      // grouping before any digit
  EXPECT_EQ(text("de-DE", "+1"), "<invalid>");
  EXPECT_EQ(text("de-DE", "1E"), "<invalid>");
  EXPECT_EQ(text("fr-FR", "1\u202f234,5"), "1234.5");  // a narrow no-break space groups
  EXPECT_EQ(text("fr-FR", "1 234,5"), "<invalid>");
  EXPECT_EQ(text("sv-SE", "\u22125"), "-5");           // Swedish minus sign
  EXPECT_EQ(text("sv-SE", "-5"), "<invalid>");
  EXPECT_EQ(text("ja-JP", "1,234.5"), "1234.5");
}

}  // namespace
}  // namespace ember::io
