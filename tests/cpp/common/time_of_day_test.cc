// TIME values: Spark's string form in both directions and truncation to a precision.

#include <gtest/gtest.h>

#include "common/datetime.h"
#include "common/error.h"

namespace ember {
namespace {

constexpr int64_t kSec = kNanosPerSecond;

int64_t hms(int h, int m, int s, int64_t nanos = 0) { return (h * 3600LL + m * 60 + s) * kSec + nanos; }

TEST(TimeOfDay, ParsesSparkTimeStrings) {
  int64_t t = -1;
  ASSERT_TRUE(parse_time("12:34:56", &t));
  EXPECT_EQ(t, hms(12, 34, 56));
  ASSERT_TRUE(parse_time("1:2:3", &t));
  EXPECT_EQ(t, hms(1, 2, 3));
  ASSERT_TRUE(parse_time("12:5", &t));
  EXPECT_EQ(t, hms(12, 5, 0));
  ASSERT_TRUE(parse_time(" \t12:00:01 ", &t));
  EXPECT_EQ(t, hms(12, 0, 1));
  ASSERT_TRUE(parse_time("T23:59:59.999999999", &t));
  EXPECT_EQ(t, hms(23, 59, 59, 999999999));
  ASSERT_TRUE(parse_time("00:00:00.5", &t));
  EXPECT_EQ(t, 500000000);
  // Digits past nanoseconds are cut; a bare dot is no fraction.
  ASSERT_TRUE(parse_time("12:00:01.1234567891", &t));
  EXPECT_EQ(t, hms(12, 0, 1, 123456789));
  ASSERT_TRUE(parse_time("12:00:00.", &t));
  EXPECT_EQ(t, hms(12, 0, 0));
}

TEST(TimeOfDay, RejectsMalformedTimes) {
  int64_t t;
  for (const char* s : {"", "12", "24:00:00", "12:60", "12:00:60", "012:00", "12:00:", "T 12:00",
                        "+12:00", "12:00:00Z", "2020-01-01 12:00:00", "ab:cd", "12:00:00.1x"}) {
    EXPECT_FALSE(parse_time(s, &t)) << s;
  }
}

TEST(TimeOfDay, FractionDigitsOfLiterals) {
  EXPECT_EQ(time_string_fraction_digits("12:00"), 0);
  EXPECT_EQ(time_string_fraction_digits("12:00:00.1"), 1);
  EXPECT_EQ(time_string_fraction_digits(" 12:00:00.1234567 "), 7);
}

TEST(TimeOfDay, FormatsAsSparkPrints) {
  EXPECT_EQ(format_time(0), "00:00:00");
  EXPECT_EQ(format_time(hms(12, 34, 56)), "12:34:56");
  EXPECT_EQ(format_time(hms(12, 0, 1, 500000000)), "12:00:01.5");
  EXPECT_EQ(format_time(hms(0, 0, 1, 123456700)), "00:00:01.1234567");
  EXPECT_EQ(format_time(hms(23, 59, 59, 999999999)), "23:59:59.999999999");
  EXPECT_EQ(format_time(1000), "00:00:00.000001");
}

TEST(TimeOfDay, TruncatesToPrecision) {
  const int64_t t = hms(12, 0, 1, 987654321);
  EXPECT_EQ(truncate_time(t, 0), hms(12, 0, 1));
  EXPECT_EQ(truncate_time(t, 2), hms(12, 0, 1, 980000000));
  EXPECT_EQ(truncate_time(t, 6), hms(12, 0, 1, 987654000));
  EXPECT_EQ(truncate_time(t, 9), t);
}

TEST(TimeOfDay, DayTimeIntervalText) {
  EXPECT_EQ(format_day_time_interval(3600LL * kMicrosPerSecond, 1, 1), "INTERVAL '01' HOUR");
  EXPECT_EQ(format_day_time_interval(-13 * 3600LL * kMicrosPerSecond, 1, 1), "INTERVAL '-13' HOUR");
  EXPECT_EQ(format_day_time_interval(5400LL * kMicrosPerSecond + 500000, 1, 3),
            "INTERVAL '01:30:00.5' HOUR TO SECOND");
}

}  // namespace
}  // namespace ember
