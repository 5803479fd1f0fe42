// Calendar intervals: Spark's text of them, the string conversion and the field arithmetic,
// including the overflow edges a query reaches only with extreme values.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/calendar_interval.h"

namespace ember {
namespace {

constexpr int64_t kSecond = 1000000;
constexpr int64_t kHour = 3600 * kSecond;

TEST(CalendarInterval, FormatsAsSparkDoes) {
  EXPECT_EQ(format_calendar_interval({}), "0 seconds");
  EXPECT_EQ(format_calendar_interval({14, 25, 5 * kHour + 6 * 60 * kSecond + 7500000}),
            "1 years 2 months 25 days 5 hours 6 minutes 7.5 seconds");
  EXPECT_EQ(format_calendar_interval({-14, -4, -(5 * kHour + 6 * 60 * kSecond + 7500000)}),
            "-1 years -2 months -4 days -5 hours -6 minutes -7.5 seconds");
  EXPECT_EQ(format_calendar_interval({0, 0, -1}), "-0.000001 seconds");
  EXPECT_EQ(format_calendar_interval({12, 0, 0}), "1 years");
  EXPECT_EQ(format_calendar_interval({0, 0, std::numeric_limits<int64_t>::max()}),
            "2562047788 hours 54.775807 seconds");
  EXPECT_EQ(format_calendar_interval({0, 0, std::numeric_limits<int64_t>::min()}),
            "-2562047788 hours -54.775808 seconds");
}

TEST(CalendarInterval, ParsesIntervalStrings) {
  auto parsed = parse_calendar_interval("interval 1 year -2 months 3 weeks 1.5 seconds 2 milliseconds");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(*parsed, (CalendarInterval{10, 21, 1502000}));
  EXPECT_EQ(*parse_calendar_interval("- 1 DAY"), (CalendarInterval{0, -1, 0}));
  EXPECT_EQ(*parse_calendar_interval("1.1234567 seconds"), (CalendarInterval{0, 0, 1123456}));
  EXPECT_EQ(*parse_calendar_interval("-9223372036854775807 microseconds"),
            (CalendarInterval{0, 0, -std::numeric_limits<int64_t>::max()}));
  for (const char* bad : {"", "interval", "-9223372036854775808 microseconds", "1 day,", "1.5 days", "1 ms", "1minute", "abc",
                          "9223372036854775808 microseconds", "2147483648 days", "178956971 years"})
    EXPECT_FALSE(parse_calendar_interval(bad)) << bad;
}

TEST(CalendarInterval, ScalesWithSparksRounding) {
  CalendarInterval out;
  ASSERT_TRUE(scale_calendar_interval({14, 3, 1}, 1.5, false, false, &out));
  EXPECT_EQ(out, (CalendarInterval{21, 4, 12 * kHour + 2}));  // half a day carried, 1.5 µs rounded up
  ASSERT_TRUE(scale_calendar_interval({1, 1, 0}, 3, true, false, &out));
  EXPECT_EQ(out, (CalendarInterval{0, 0, 8 * kHour}));  // a third of a month is dropped
  ASSERT_TRUE(scale_calendar_interval({0, 0, -2 * kSecond}, 3, true, false, &out));
  EXPECT_EQ(out.micros, -666667);
  ASSERT_TRUE(scale_calendar_interval({0, 1, 0}, std::nan(""), false, false, &out));
  EXPECT_EQ(out, CalendarInterval{});
  ASSERT_TRUE(scale_calendar_interval({0, 0, kSecond}, 1e19, false, false, &out));
  EXPECT_EQ(out.micros, std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(scale_calendar_interval({12, 1, 0}, 2147483647, false, false, &out));
  ASSERT_TRUE(scale_calendar_interval({12, 1, 0}, 2147483647, false, true, &out));
  EXPECT_EQ(out, (CalendarInterval{2147483647, 2147483647, 0}));
}

TEST(CalendarInterval, FieldArithmeticOverflows) {
  CalendarInterval out;
  EXPECT_FALSE(add_calendar_intervals({2147483647, 0, 0}, {1, 0, 0}, false, &out));
  ASSERT_TRUE(add_calendar_intervals({1, 2, 3}, {1, 1, 1}, true, &out));
  EXPECT_EQ(out, (CalendarInterval{0, 1, 2}));
  EXPECT_FALSE(negate_calendar_interval({0, std::numeric_limits<int32_t>::min(), 0}, &out));
  ASSERT_TRUE(make_calendar_interval(100, 11, 1, 1, 12, 30, 1001001, &out));
  EXPECT_EQ(out, (CalendarInterval{1211, 8, 12 * kHour + 30 * 60 * kSecond + 1001001}));
  EXPECT_FALSE(make_calendar_interval(2147483647, 0, 0, 0, 0, 0, 0, &out));
  EXPECT_FALSE(make_calendar_interval(0, 0, -1, std::numeric_limits<int32_t>::min(), 0, 0, 0, &out));
  ASSERT_TRUE(make_calendar_interval(0, 0, 0, 0, std::numeric_limits<int32_t>::min(), 0, 0, &out));
  EXPECT_EQ(out.micros, std::numeric_limits<int32_t>::min() * kHour);
}

}  // namespace
}  // namespace ember
