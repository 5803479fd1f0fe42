#pragma once

// Spark's CalendarInterval: months, days and microseconds, kept apart because a month has no
// fixed number of days, nor a day a fixed number of microseconds across a DST change. Its text,
// its parse from text and the arithmetic Spark defines on it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.h"

namespace ember {

/// One value of the calendar interval type, as a column stores it (16 bytes, no padding).
struct CalendarInterval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;

  bool operator==(const CalendarInterval& o) const {
    return months == o.months && days == o.days && micros == o.micros;
  }
};
static_assert(sizeof(CalendarInterval) == 16, "CalendarInterval is a 16-byte record");

/// Spark's CalendarInterval.toString, what show() and CAST(i AS STRING) print:
/// `1 years 2 months 3 days 4 hours 5 minutes 6.5 seconds`, each non-zero unit with its sign,
/// `0 seconds` for the empty interval.
std::string format_calendar_interval(const CalendarInterval& v);

/// Spark's string -> interval conversion (`CAST(s AS INTERVAL)`): an optional `interval`
/// prefix, then signed values each followed by a unit (year, month, week, day, hour, minute,
/// second, millisecond, microsecond; singular or plural, any case); only seconds take a
/// fraction. Empty when the text is not an interval or a field overflows.
std::optional<CalendarInterval> parse_calendar_interval(std::string_view text);

/// Spark's CANNOT_PARSE_INTERVAL for `text`, of `kind` (an analysis error where a plan names
/// the interval, an illegal argument where a function reads it).
[[noreturn]] void throw_cannot_parse_interval(const std::string& text, ErrorKind kind);

/// The arithmetic below reports overflow by returning false; the caller raises Spark's error or
/// returns NULL (the try_ forms).

/// a + b or a - b, field by field.
bool add_calendar_intervals(const CalendarInterval& a, const CalendarInterval& b, bool subtract,
                            CalendarInterval* out);
/// -a, field by field.
bool negate_calendar_interval(const CalendarInterval& a, CalendarInterval* out);
/// Spark's multiply_interval and divide_interval: each field times (or divided by) `num` in
/// double, the whole months and days kept and the fraction of the days carried into the
/// microseconds (rounded half up, saturating). Months or days outside the int range fail, or
/// with `saturate` (Spark's legacy non-ANSI form) become the nearest int. `divide` by 0 is the
/// caller's case.
bool scale_calendar_interval(const CalendarInterval& a, double num, bool divide, bool saturate,
                             CalendarInterval* out);

/// make_interval(years, months, weeks, days, hours, mins, secs): secs in microseconds.
bool make_calendar_interval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours,
                            int32_t mins, int64_t sec_micros, CalendarInterval* out);

}  // namespace ember
