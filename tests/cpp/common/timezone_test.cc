#include "common/timezone.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/datetime.h"
#include "common/error.h"

namespace ember {
namespace {

constexpr int64_t kHour = 3600;

int64_t utc_seconds(int64_t y, int m, int d, int hh = 0, int mm = 0, int ss = 0) {
  return days_from_civil(y, m, d) * kSecondsPerDay + hh * 3600 + mm * 60 + ss;
}

int64_t micros(int64_t y, int m, int d, int hh = 0, int mm = 0, int ss = 0, int us = 0) {
  return utc_seconds(y, m, d, hh, mm, ss) * kMicrosPerSecond + us;
}

TEST(CivilTest, EpochAndKnownDays) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);
  EXPECT_EQ(days_from_civil(0, 1, 1), -719528);
  EXPECT_EQ(days_from_civil(-1, 12, 31), -719529);
  EXPECT_EQ(days_from_civil(9999, 12, 31), 2932896);
}

TEST(CivilTest, RoundTripAcrossEras) {
  for (int64_t d = -800000; d < 3000000; d += 37) {
    CivilDate c = civil_from_days(d);
    ASSERT_TRUE(is_valid_date(c.year, c.month, c.day)) << d;
    ASSERT_EQ(days_from_civil(c.year, c.month, c.day), d);
  }
}

TEST(CivilTest, LeapDays) {
  EXPECT_TRUE(is_valid_date(2000, 2, 29));
  EXPECT_TRUE(is_valid_date(2024, 2, 29));
  EXPECT_FALSE(is_valid_date(1900, 2, 29));
  EXPECT_FALSE(is_valid_date(2023, 2, 29));
  EXPECT_EQ(days_from_civil(2024, 3, 1) - days_from_civil(2024, 2, 28), 2);
  EXPECT_EQ(days_from_civil(2100, 3, 1) - days_from_civil(2100, 2, 28), 1);
  CivilDate c = civil_from_days(days_from_civil(2024, 2, 29));
  EXPECT_EQ(c.year, 2024);
  EXPECT_EQ(c.month, 2);
  EXPECT_EQ(c.day, 29);
  EXPECT_EQ(iso_day_of_week(0), 4);                              // Thursday
  EXPECT_EQ(iso_day_of_week(days_from_civil(2024, 2, 29)), 4);  // Thursday
}

TEST(TimeZoneTest, Utc) {
  for (const char* name : {"UTC", "Z", "GMT", "UT", "Etc/UTC", "+00:00", "UTC+0"}) {
    const TimeZone& tz = TimeZone::get(name);
    EXPECT_EQ(tz.offset_seconds_at_utc(0), 0) << name;
    EXPECT_EQ(tz.offset_seconds_at_utc(utc_seconds(2023, 7, 1)), 0) << name;
    EXPECT_EQ(tz.local_to_utc_micros(123456789), 123456789) << name;
  }
  EXPECT_EQ(&TimeZone::utc(), &TimeZone::get("UTC"));
}

TEST(TimeZoneTest, FixedOffsetsAsSparkAcceptsThem) {
  struct Case {
    const char* name;
    int64_t offset;
  } cases[] = {
      {"+08:00", 8 * kHour},        {"-8", -8 * kHour},          {"+8", 8 * kHour},
      {"-08", -8 * kHour},          {"UTC+8", 8 * kHour},        {"GMT-05:30", -(5 * kHour + 1800)},
      {"Etc/GMT+3", -3 * kHour},    {"Etc/GMT-14", 14 * kHour},  {"+0530", 5 * kHour + 1800},
      {"+5:30", 5 * kHour + 1800},  {"+05:3", 5 * kHour + 180},  {"-13:33:33", -(13 * kHour + 33 * 60 + 33)},
      {"+18:00", 18 * kHour},       {"EST", -5 * kHour},         {"HST", -10 * kHour},
      {"UT-3", -3 * kHour},
  };
  for (const auto& c : cases) {
    const TimeZone* tz = TimeZone::find(c.name);
    ASSERT_NE(tz, nullptr) << c.name;
    EXPECT_TRUE(tz->is_fixed()) << c.name;
    EXPECT_EQ(tz->offset_seconds_at_utc(utc_seconds(2023, 7, 1)), c.offset) << c.name;
    EXPECT_EQ(tz->offset_seconds_at_local(utc_seconds(1900, 1, 1)), c.offset) << c.name;
    EXPECT_EQ(tz->utc_to_local_micros(0), c.offset * kMicrosPerSecond) << c.name;
  }
}

TEST(TimeZoneTest, UnknownZonesThrow) {
  for (const char* name : {"", "Foo/Bar", "+19:00", "UTC+25", "../etc/passwd", "/etc/passwd",
                           "America/../../etc/passwd", "utc", "+1:2:3", "GMT+", "8"}) {
    EXPECT_EQ(TimeZone::find(name), nullptr) << name;
  }
  try {
    TimeZone::get("Mars/Olympus_Mons");
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "INVALID_TIMEZONE");
    EXPECT_EQ(e.params().at("timeZone"), "Mars/Olympus_Mons");
  }
}

TEST(TimeZoneTest, ShortIdsAreAliases) {
  const TimeZone& pst = TimeZone::get("PST");
  EXPECT_FALSE(pst.is_fixed());
  EXPECT_EQ(pst.offset_seconds_at_utc(utc_seconds(2023, 7, 1)), -7 * kHour);
  EXPECT_EQ(TimeZone::get("IST").offset_seconds_at_utc(utc_seconds(2023, 7, 1)), 5 * kHour + 1800);
}

TEST(TimeZoneTest, LosAngelesOffsets) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  EXPECT_FALSE(la.is_fixed());
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 1, 1)), -8 * kHour);
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 7, 1)), -7 * kHour);
  // DST starts 2023-03-12 at 02:00 PST = 10:00 UTC.
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 3, 12, 9, 59, 59)), -8 * kHour);
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 3, 12, 10)), -7 * kHour);
  // DST ends 2023-11-05 at 02:00 PDT = 09:00 UTC.
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 11, 5, 8, 59, 59)), -7 * kHour);
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2023, 11, 5, 9)), -8 * kHour);
}

TEST(TimeZoneTest, LosAngelesGapShiftsForward) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  // 02:30 does not exist on 2023-03-12: java.time uses the offset before the gap (-8),
  // which yields 03:30 PDT = 10:30 UTC.
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 3, 12, 2, 30)), micros(2023, 3, 12, 10, 30));
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 3, 12, 2, 0)), micros(2023, 3, 12, 10, 0));
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 3, 12, 1, 59, 59)), micros(2023, 3, 12, 9, 59, 59));
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 3, 12, 3, 0)), micros(2023, 3, 12, 10, 0));
}

TEST(TimeZoneTest, LosAngelesOverlapTakesEarlierOffset) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  // 01:30 happens twice on 2023-11-05; the earlier instant is 01:30 PDT = 08:30 UTC.
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 11, 5, 1, 30)), micros(2023, 11, 5, 8, 30));
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 11, 5, 0, 59)), micros(2023, 11, 5, 7, 59));
  EXPECT_EQ(la.local_to_utc_micros(micros(2023, 11, 5, 2, 0)), micros(2023, 11, 5, 10, 0));
  // Both instants of the overlap map back to 01:30 local.
  EXPECT_EQ(la.utc_to_local_micros(micros(2023, 11, 5, 8, 30)), micros(2023, 11, 5, 1, 30));
  EXPECT_EQ(la.utc_to_local_micros(micros(2023, 11, 5, 9, 30)), micros(2023, 11, 5, 1, 30));
}

TEST(TimeZoneTest, FarPastAndFuture) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  // Local mean time before standard time was adopted in 1883: -7:52:58.
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(1800, 1, 1)), -(7 * kHour + 52 * 60 + 58));
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(-5000, 1, 1)), -(7 * kHour + 52 * 60 + 58));
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(1900, 1, 1)), -8 * kHour);
  // Past the TZif data and past the extended table: the POSIX rule.
  for (int64_t y : {2050, 2099, 2100, 2101, 2500, 3000, 10000, 100000}) {
    EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(y, 1, 15)), -8 * kHour) << y;
    EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(y, 7, 15)), -7 * kHour) << y;
    EXPECT_EQ(la.offset_seconds_at_local(utc_seconds(y, 1, 15)), -8 * kHour) << y;
    EXPECT_EQ(la.offset_seconds_at_local(utc_seconds(y, 7, 15)), -7 * kHour) << y;
  }
  // DST in 2500 starts on the second Sunday of March: 2500-03-14.
  EXPECT_EQ(iso_day_of_week(days_from_civil(2500, 3, 14)), 7);
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2500, 3, 14, 9, 59)), -8 * kHour);
  EXPECT_EQ(la.offset_seconds_at_utc(utc_seconds(2500, 3, 14, 10, 0)), -7 * kHour);
  EXPECT_EQ(la.local_to_utc_micros(micros(2500, 3, 14, 2, 30)), micros(2500, 3, 14, 10, 30));
  EXPECT_EQ(la.local_to_utc_micros(micros(2500, 11, 7, 1, 30)), micros(2500, 11, 7, 8, 30));
}

TEST(TimeZoneTest, SouthernHemisphere) {
  const TimeZone& syd = TimeZone::get("Australia/Sydney");
  for (int64_t y : {2023, 2099, 2150, 2300}) {
    EXPECT_EQ(syd.offset_seconds_at_utc(utc_seconds(y, 1, 15)), 11 * kHour) << y;
    EXPECT_EQ(syd.offset_seconds_at_utc(utc_seconds(y, 7, 15)), 10 * kHour) << y;
    EXPECT_EQ(syd.offset_seconds_at_local(utc_seconds(y, 12, 31, 23)), 11 * kHour) << y;
  }
  // DST ended 2023-04-02 03:00 AEDT (16:00 UTC on 04-01): 02:30 local happens twice.
  EXPECT_EQ(syd.local_to_utc_micros(micros(2023, 4, 2, 2, 30)), micros(2023, 4, 1, 15, 30));
}

TEST(TimeZoneTest, RoundTripsOutsideGapsAndOverlaps) {
  for (const char* name : {"America/Los_Angeles", "Europe/Berlin", "Asia/Kolkata",
                           "Australia/Lord_Howe", "America/St_Johns", "Asia/Kathmandu"}) {
    const TimeZone& tz = TimeZone::get(name);
    for (int64_t t = utc_seconds(1950, 1, 1); t < utc_seconds(2150, 1, 1); t += 7 * 3600 + 13) {
      const int64_t local = tz.utc_to_local_micros(t * kMicrosPerSecond);
      const int64_t back = tz.local_to_utc_micros(local);
      // Only instants in the later half of an overlap map back elsewhere (to the earlier one).
      if (back != t * kMicrosPerSecond) {
        ASSERT_LT(back, t * kMicrosPerSecond) << name << " " << t;
        ASSERT_EQ(tz.utc_to_local_micros(back), local) << name << " " << t;
      }
    }
  }
}

// The fat system files (transitions to 2037) and the slim ones of the tzdata Python package
// (rules from the POSIX footer early on) must describe the same zone. Zones whose rules
// changed between tzdata releases (Africa/Casablanca) are left out.
TEST(TimeZoneTest, SlimAndFatFilesAgree) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  if (fs::is_directory("/usr/share/zoneinfo")) dirs.push_back("/usr/share/zoneinfo");
  // The tzdata package of the repository's virtual environment, looked up from this source
  // file and from the working directory.
  for (fs::path start : {fs::path(__FILE__).parent_path(), fs::current_path()}) {
    for (fs::path dir = start; !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
      std::error_code ec;
      if (!fs::is_directory(dir / ".venv" / "lib", ec)) continue;
      for (auto& e : fs::directory_iterator(dir / ".venv" / "lib", ec)) {
        fs::path zi = e.path() / "site-packages" / "tzdata" / "zoneinfo";
        if (fs::is_directory(zi)) dirs.push_back(zi.string());
      }
      break;
    }
    if (dirs.size() >= 2) break;
  }
  if (dirs.size() < 2) GTEST_SKIP() << "needs two zoneinfo directories";
  for (const char* name : {"America/Los_Angeles", "Europe/London", "Australia/Sydney",
                           "America/Sao_Paulo", "Europe/Dublin",
                           "America/Santiago", "Pacific/Chatham"}) {
    auto a = TimeZone::load(name, dirs[0]);
    auto b = TimeZone::load(name, dirs[1]);
    ASSERT_TRUE(a && b) << name;
    for (int64_t t = utc_seconds(1990, 1, 1); t < utc_seconds(2200, 1, 1); t += 86400 * 3 + 3599) {
      ASSERT_EQ(a->offset_seconds_at_utc(t), b->offset_seconds_at_utc(t)) << name << " " << t;
      ASSERT_EQ(a->offset_seconds_at_local(t), b->offset_seconds_at_local(t)) << name << " " << t;
    }
  }
}

TEST(TimeZoneTest, PosixRules) {
  TimeZone::PosixRule r;
  ASSERT_TRUE(r.parse("PST8PDT,M3.2.0,M11.1.0"));
  EXPECT_EQ(r.std_offset, -8 * kHour);
  EXPECT_EQ(r.dst_offset, -7 * kHour);
  EXPECT_EQ(r.start_utc(2023), utc_seconds(2023, 3, 12, 10));
  EXPECT_EQ(r.end_utc(2023), utc_seconds(2023, 11, 5, 9));
  ASSERT_TRUE(r.parse("<-03>3"));
  EXPECT_FALSE(r.has_dst);
  EXPECT_EQ(r.std_offset, -3 * kHour);
  ASSERT_TRUE(r.parse("AEST-10AEDT,M10.1.0,M4.1.0/3"));
  EXPECT_EQ(r.start_utc(2023), utc_seconds(2023, 9, 30, 16));
  EXPECT_EQ(r.end_utc(2023), utc_seconds(2023, 4, 1, 16));
  ASSERT_TRUE(r.parse("IST-1GMT0,M10.5.0,M3.5.0/1"));  // Europe/Dublin: "negative" DST
  EXPECT_EQ(r.offset_at_utc(utc_seconds(2023, 7, 1)), kHour);
  EXPECT_EQ(r.offset_at_utc(utc_seconds(2023, 1, 1)), 0);
  ASSERT_TRUE(r.parse("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"));
  EXPECT_EQ(r.std_offset, 10 * kHour + 1800);
  ASSERT_TRUE(r.parse("EST5EDT,J60/2,300"));
  EXPECT_FALSE(r.parse("PST8PDT,M13.2.0,M11.1.0"));
  EXPECT_FALSE(r.parse("P8"));
}

TEST(TimeZoneTest, DublinSummerIsUtcPlusOne) {
  const TimeZone& d = TimeZone::get("Europe/Dublin");
  EXPECT_EQ(d.offset_seconds_at_utc(utc_seconds(2023, 7, 1)), kHour);
  EXPECT_EQ(d.offset_seconds_at_utc(utc_seconds(2023, 1, 1)), 0);
  EXPECT_EQ(d.offset_seconds_at_utc(utc_seconds(2400, 7, 1)), kHour);
  EXPECT_EQ(d.offset_seconds_at_utc(utc_seconds(2400, 1, 1)), 0);
}

// ---- String parsing and formatting (Spark's default formats).

TEST(DateTimeParseTest, Dates) {
  int32_t d = 0;
  auto date = [](int64_t y, int m, int dd) { return static_cast<int32_t>(days_from_civil(y, m, dd)); };
  ASSERT_TRUE(parse_date("2023-01-01", &d));
  EXPECT_EQ(d, date(2023, 1, 1));
  ASSERT_TRUE(parse_date("2023-1-1", &d));
  EXPECT_EQ(d, date(2023, 1, 1));
  ASSERT_TRUE(parse_date("  2023-01-02  ", &d));
  EXPECT_EQ(d, date(2023, 1, 2));
  ASSERT_TRUE(parse_date("2023-01-02 10:00:00", &d));
  EXPECT_EQ(d, date(2023, 1, 2));
  ASSERT_TRUE(parse_date("2023-01-02Tanything", &d));
  EXPECT_EQ(d, date(2023, 1, 2));
  ASSERT_TRUE(parse_date("2023", &d));
  EXPECT_EQ(d, date(2023, 1, 1));
  ASSERT_TRUE(parse_date("2023-03", &d));
  EXPECT_EQ(d, date(2023, 3, 1));
  ASSERT_TRUE(parse_date("+2023-01-01", &d));
  ASSERT_TRUE(parse_date("-0044-03-15", &d));
  EXPECT_EQ(d, date(-44, 3, 15));
  ASSERT_TRUE(parse_date("2024-02-29", &d));
  for (const char* bad : {"", "2023-02-29", "2023-02-30", "2023-13-01", "23-01-01", "2023/01/01",
                          "2023-01-01x", "2023-01x", "20230101999", "2023-001-01", "abc"}) {
    EXPECT_FALSE(parse_date(bad, &d)) << bad;
  }
}

TEST(DateTimeParseTest, Timestamps) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  const TimeZone& utc = TimeZone::utc();
  int64_t us = 0;
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 18));
  ASSERT_TRUE(parse_timestamp("2023-01-01T10:00:00Z", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00+01:00", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 9));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00 America/New_York", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 15));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00UTC", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00.123456789", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10, 0, 0, 123456));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00.5", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10, 0, 0, 500000));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00:00.5Z", la, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10, 0, 0, 500000));
  ASSERT_TRUE(parse_timestamp("2023-01-01 10:00", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10));
  ASSERT_TRUE(parse_timestamp("2023-01-01T10:00", utc, &us));
  ASSERT_TRUE(parse_timestamp("2023-01-01", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1));
  ASSERT_TRUE(parse_timestamp(" 2023-01-01 ", utc, &us));
  ASSERT_TRUE(parse_timestamp("2023-1-1", utc, &us));
  ASSERT_TRUE(parse_timestamp("2023-01", utc, &us));
  EXPECT_EQ(us, micros(2023, 1, 1));
  ASSERT_TRUE(parse_timestamp("12023-01-01", utc, &us));
  EXPECT_EQ(us, micros(12023, 1, 1));
  ASSERT_TRUE(parse_timestamp("10:00:00", utc, &us));  // today
  EXPECT_EQ(floor_mod(us, kMicrosPerDay), 10 * kHour * kMicrosPerSecond);
  ASSERT_TRUE(parse_timestamp("2023-03-12 02:30:00", la, &us));  // in the gap
  EXPECT_EQ(us, micros(2023, 3, 12, 10, 30));
  ASSERT_TRUE(parse_timestamp("2023-11-05 01:30:00", la, &us));  // in the overlap
  EXPECT_EQ(us, micros(2023, 11, 5, 8, 30));
  for (const char* bad : {"", "2023-02-30", "2023-01-01T", "2023-01-01Z", "2023/01/01", "1.5",
                          "2023-01-01 10:00+01:00", "2023-01-01 25:00:00", "2023-01-01 10:60",
                          "2023-01-01 10:00:00 Mars/Base", "1234567-01-01", "abc", "10", "true"}) {
    EXPECT_FALSE(parse_timestamp(bad, utc, &us)) << bad;
  }
  ASSERT_TRUE(parse_timestamp_ntz("2023-01-01 10:00:00", &us));
  EXPECT_EQ(us, micros(2023, 1, 1, 10));
  EXPECT_FALSE(parse_timestamp_ntz("2023-01-01 10:00:00Z", &us));
  EXPECT_FALSE(parse_timestamp_ntz("10:00:00", &us));
}

TEST(DateTimeFormatTest, AsSparkCastsToString) {
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  EXPECT_EQ(format_timestamp(micros(2023, 1, 1), TimeZone::utc()), "2023-01-01 00:00:00");
  EXPECT_EQ(format_timestamp(micros(2023, 1, 1, 8), la), "2023-01-01 00:00:00");
  EXPECT_EQ(format_timestamp_ntz(micros(2023, 1, 1, 0, 0, 0, 500000)), "2023-01-01 00:00:00.5");
  EXPECT_EQ(format_timestamp_ntz(micros(2023, 1, 1, 0, 0, 0, 123456)), "2023-01-01 00:00:00.123456");
  EXPECT_EQ(format_timestamp_ntz(micros(2023, 1, 1, 0, 0, 0, 120)), "2023-01-01 00:00:00.00012");
  EXPECT_EQ(format_timestamp_ntz(-1), "1969-12-31 23:59:59.999999");
  EXPECT_EQ(format_timestamp_ntz(micros(12023, 1, 1)), "+12023-01-01 00:00:00");
  EXPECT_EQ(format_timestamp_ntz(micros(1, 1, 1)), "0001-01-01 00:00:00");
  EXPECT_EQ(format_date(static_cast<int32_t>(days_from_civil(2024, 2, 29))), "2024-02-29");
  EXPECT_EQ(format_date(static_cast<int32_t>(days_from_civil(-44, 3, 15))), "-0044-03-15");
  EXPECT_EQ(format_date(static_cast<int32_t>(days_from_civil(0, 1, 1))), "0000-01-01");
}


// Found by the JSON reader's fuzz target: a field of 19 or more digits was multiplied past
// int64 before it was rejected.
TEST(DateTimeParseTest, OverlongFieldsAreRejectedWithoutOverflow) {
  const TimeZone& utc = TimeZone::utc();
  int64_t us = 0;
  EXPECT_FALSE(parse_timestamp("9999999999999999999-01-01", utc, &us));
  EXPECT_FALSE(parse_timestamp("2020-01-01 10:00:99999999999999999999", utc, &us));
  EXPECT_FALSE(parse_timestamp("99999999999999999999999999", utc, &us));
  EXPECT_TRUE(parse_timestamp("2020-01-01 10:00:00.123456789", utc, &us));
}

}  // namespace
}  // namespace ember
