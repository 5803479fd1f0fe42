#include "common/datetime_pattern.h"
#include "common/locale.h"

#include <gtest/gtest.h>

#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"

namespace ember {
namespace {

int64_t micros(int64_t y, int m, int d, int hh = 0, int mm = 0, int ss = 0, int us = 0) {
  return (days_from_civil(y, m, d) * kSecondsPerDay + hh * 3600 + mm * 60 + ss) *
             kMicrosPerSecond + us;
}

std::string ts(const std::string& pattern, const std::string& text,
               const std::string& zone = "UTC") {
  int64_t us;
  if (!DateTimePattern(pattern).parse_timestamp(text, TimeZone::get(zone), &us)) return "null";
  return format_timestamp_ntz(us);
}

std::string date(const std::string& pattern, const std::string& text) {
  int32_t d;
  if (!DateTimePattern(pattern).parse_date(text, &d)) return "null";
  return format_date(d);
}

TEST(DateTimePatternTest, NumericFieldWidths) {
  EXPECT_EQ(date("yyyy-MM-dd", "2023-01-02"), "2023-01-02");
  EXPECT_EQ(date("yyyy-MM-dd", "2023-1-2"), "null");
  EXPECT_EQ(date("yyyy-MM-dd", "12023-01-02"), "null");
  EXPECT_EQ(date("yyyy-MM-dd", "+2023-01-02"), "null");   // '+' only before a longer year
  EXPECT_EQ(date("yyyy-MM-dd", "+12023-01-02"), "+12023-01-02");
  EXPECT_EQ(date("yyyy-MM-dd", "2023-02-30"), "null");
  EXPECT_EQ(date("yyyy-MM-dd", "2023-01-02 "), "null");   // the whole text must match
  EXPECT_EQ(date("d/M/yyyy", "1/2/2023"), "2023-02-01");
  EXPECT_EQ(date("d/M/yyyy", "01/02/2023"), "2023-02-01");
  EXPECT_EQ(date("dd/MM/yyyy", "1/2/2023"), "null");
  EXPECT_EQ(date("yyyyMMdd", "20230102"), "2023-01-02");
  EXPECT_EQ(date("yyMMdd", "230102"), "2023-01-02");
  EXPECT_EQ(date("yyyy-DDD", "2024-060"), "2024-02-29");
  EXPECT_EQ(date("yyyy", "2023"), "2023-01-01");
  EXPECT_EQ(date("MM/yyyy", "07/2023"), "2023-07-01");
}

TEST(DateTimePatternTest, TextFieldsAndLiterals) {
  EXPECT_EQ(date("MMM dd yyyy", "Jan 02 2023"), "2023-01-02");
  EXPECT_EQ(date("MMM dd yyyy", "jan 02 2023"), "2023-01-02");
  EXPECT_EQ(date("MMMM d, yyyy", "February 3, 2023"), "2023-02-03");
  EXPECT_EQ(date("EEE, dd MMM yyyy", "Mon, 02 Jan 2023"), "2023-01-02");
  EXPECT_EQ(date("yyyy-MM-dd'T'", "2023-01-02T"), "2023-01-02");
  EXPECT_EQ(date("'day' d 'of' M''yy", "day 2 of 1'23"), "2023-01-02");
}

TEST(DateTimePatternTest, TimesFractionsAndZones) {
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss", "2023-01-02 03:04:05"), "2023-01-02 03:04:05");
  EXPECT_EQ(ts("yyyy/M/d H:mm:ss", "2023/1/2 3:04:05"), "2023-01-02 03:04:05");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss.SSS", "2023-01-02 03:04:05.5"), "2023-01-02 03:04:05.5");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss.SSS", "2023-01-02 03:04:05.123"), "2023-01-02 03:04:05.123");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss.SSS", "2023-01-02 03:04:05.1234"), "null");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss.SSS", "2023-01-02 03:04:05"), "null");
  EXPECT_EQ(ts("yyyy-MM-dd hh:mm:ss a", "2023-01-02 03:04:05 PM"), "2023-01-02 15:04:05");
  EXPECT_EQ(ts("yyyy-MM-dd hh:mm a", "2023-01-02 12:30 am"), "2023-01-02 00:30:00");
  EXPECT_EQ(ts("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "2023-01-02T03:04:05.123+01:00"),
            "2023-01-02 02:04:05.123");
  EXPECT_EQ(ts("yyyy-MM-dd'T'HH:mm:ssX", "2023-01-02T03:04:05Z", "America/Los_Angeles"),
            "2023-01-02 03:04:05");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ssZ", "2023-01-02 03:04:05-0800"), "2023-01-02 11:04:05");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm:ss VV", "2023-01-02 03:04:05 America/New_York"),
            "2023-01-02 08:04:05");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm", "2023-03-12 02:30", "America/Los_Angeles"),
            "2023-03-12 10:30:00");
  EXPECT_EQ(ts("yyyy-MM-dd HH:mm", "2023-01-02 24:00"), "null");
  int64_t us;
  EXPECT_FALSE(DateTimePattern("yyyy-MM-dd HH:mmXXX").parse_timestamp_ntz("2023-01-02 03:04Z", &us));
  EXPECT_TRUE(DateTimePattern("yyyy-MM-dd HH:mm").parse_timestamp_ntz("2023-01-02 03:04", &us));
  EXPECT_EQ(us, micros(2023, 1, 2, 3, 4));
}

TEST(DateTimePatternTest, OptionalSections) {
  const std::string p = "[yyyy/M/d H:mm:ss][yyyy-MM-dd'T'HH:mm:ss.SSSXXX][MMM dd yyyy]";
  EXPECT_EQ(ts(p, "2023/1/2 3:04:05"), "2023-01-02 03:04:05");
  EXPECT_EQ(ts(p, "2023-01-02T03:04:05.123+01:00"), "2023-01-02 02:04:05.123");
  EXPECT_EQ(ts(p, "Jan 02 2023"), "2023-01-02 00:00:00");
  EXPECT_EQ(ts("yyyy-MM-dd[ HH:mm]", "2023-01-02"), "2023-01-02 00:00:00");
  EXPECT_EQ(ts("yyyy-MM-dd[ HH:mm]", "2023-01-02 10:11"), "2023-01-02 10:11:00");
}

TEST(DateTimePatternTest, UnsupportedLetters) {
  EXPECT_THROW(DateTimePattern("yyyy-ww"), SparkError);
  EXPECT_THROW(DateTimePattern("ddd"), SparkError);
  EXPECT_THROW(DateTimePattern("[yyyy"), SparkError);
}

TEST(DateTimePatternTest, LocaleNames) {
  auto date = [](const char* tag, const char* pattern, const char* text) {
    int32_t days = 0;
    const DateTimePattern p(pattern, find_locale(tag));
    return p.parse_date(text, &days) ? days : -1;
  };
  const int32_t march15 = 19797;  // 2024-03-15
  EXPECT_EQ(date("de-DE", "d MMMM yyyy", "15 M\u00e4rz 2024"), march15);
  EXPECT_EQ(date("de-DE", "d MMMM yyyy", "15 M\u00c4RZ 2024"), march15);  // case-insensitive
  EXPECT_EQ(date("de-DE", "d MMMM yyyy", "15 March 2024"), -1);
  EXPECT_EQ(date("fr-FR", "d MMM yyyy", "15 mars 2024"), march15);
  EXPECT_EQ(date("fr-FR", "d MMM yyyy", "1 D\u00c9C. 2024"), 20058);
  EXPECT_EQ(date("ja-JP", "d MMM yyyy", "15 3\u6708 2024"), march15);
  // The longest name wins: en-GB's "Sept" is not "Sep" followed by "t".
  EXPECT_EQ(date("en-GB", "d MMM yyyy", "4 Sept 2024"), 19970);
  EXPECT_EQ(date("en-US", "d MMM yyyy", "4 Sept 2024"), -1);
  EXPECT_EQ(find_locale("xx-YY"), nullptr);
  EXPECT_EQ(find_locale("DE-de"), find_locale("de-DE"));
}

}  // namespace
}  // namespace ember
