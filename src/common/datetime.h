#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ember {

class TimeZone;

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;
constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int64_t kNanosPerDay = kSecondsPerDay * kNanosPerSecond;

/// Floor division and modulo (the result of floor_mod has the sign of the divisor).
constexpr int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
constexpr int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

constexpr bool is_leap_year(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
constexpr int days_in_month(int64_t y, int m) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (any year, month 1..12,
/// day 1..31; out-of-range days are not checked). Works in 400-year eras of 146097 days.
constexpr int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = floor_div(y, 400);
  const int64_t yoe = y - era * 400;                              // [0, 399]
  const int64_t mp = (m + 9) % 12;                                // March = 0
  const int64_t doy = (153 * mp + 2) / 5 + d - 1;                 // [0, 365]
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;      // [0, 146096]
  return era * 146097 + doe - 719468;
}

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};
/// The inverse of days_from_civil.
CivilDate civil_from_days(int64_t days);

/// `days` moved by `months` calendar months, the day clamped to the target month's last day
/// (add_months, date + INTERVAL MONTH).
int64_t add_months_to_days(int64_t days, int64_t months);

/// ISO day of week: 1 = Monday ... 7 = Sunday.
inline int iso_day_of_week(int64_t days) { return static_cast<int>(floor_mod(days + 3, 7)) + 1; }

/// True when y-m-d is a valid date (month 1..12, day within the month).
constexpr bool is_valid_date(int64_t y, int m, int d) {
  return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

/// The pieces of a timestamp string as Spark's default parser reads them (the format of
/// `CAST(s AS TIMESTAMP)` and of CSV/JSON timestamps without a user pattern):
///   [+-]yyyy[y..][-[m]m[-[d]d]][( |T)[h]h:[m]m[:[s]s[.fraction]][zone]]
///   [T][h]h:[m]m[:[s]s[.fraction]][zone]   (a time alone: today's date)
/// with surrounding whitespace ignored; year 4..6 digits; the fraction may have any number of
/// digits and is truncated to microseconds; the zone is `Z`, an offset (`+01:00`, `-0800`),
/// `UTC+1`, or a region name, optionally preceded by a space.
struct TimestampParts {
  int64_t year = 1970;
  int month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int micros = 0;
  bool just_time = false;
  std::string_view zone;  // empty when the string has no zone
};
bool parse_timestamp_parts(std::string_view s, TimestampParts* out);

/// Spark's default string → date conversion: `[+-]yyyy[y..][-[m]m[-[d]d]]` with anything after
/// a space or `T` that follows the day ignored; whitespace around is ignored. False when the
/// string is not a valid date.
bool parse_date(std::string_view s, int32_t* days);

/// Spark's default string → timestamp conversion: local times are in `session` unless the
/// string names its own zone. Returns UTC microseconds. False when invalid.
bool parse_timestamp(std::string_view s, const TimeZone& session, int64_t* micros);

/// The same format for TIMESTAMP_NTZ: strings with a zone or with only a time are invalid.
bool parse_timestamp_ntz(std::string_view s, int64_t* micros);

/// Microseconds of a local date-time; false when it overflows int64.
bool local_micros_of(const TimestampParts& p, int64_t* micros);

/// Formatting as Spark prints values cast to string. Years beyond 9999 get a `+`, negative
/// years a `-`; the fraction of a second is printed only when non-zero, without trailing
/// zeros (`2023-01-01 00:00:00.5`). The `char*` forms write at most 40 bytes and return the
/// length; they never allocate.
size_t format_date(int32_t days, char* out);
size_t format_local_timestamp(int64_t local_micros, char* out);
std::string format_date(int32_t days);
std::string format_timestamp(int64_t utc_micros, const TimeZone& zone);
std::string format_timestamp_ntz(int64_t micros);

/// The wall clock as UTC microseconds since the epoch (current_timestamp, current_time, and a
/// TIME cast to a timestamp, which takes today's date).
int64_t now_micros();

/// Spark's default string -> TIME conversion (`CAST(s AS TIME)`, TIME literals, to_time
/// without a pattern): `[T][h]h:[m]m[:[s]s[.fraction]]` with whitespace around ignored; hour
/// 0..23, minute and second 0..59; fraction digits past nanoseconds are cut. Returns nanoseconds
/// since midnight.
bool parse_time(std::string_view s, int64_t* nanos);

/// The number of fraction digits a TIME string carries (0 when it has none); for a TIME
/// literal's type, which is time(max(6, digits)). Only meaningful when parse_time accepts s.
int time_string_fraction_digits(std::string_view s);

/// TIME values as Spark prints them: `HH:mm:ss` and, when the nanoseconds are not a whole
/// second, a fraction without trailing zeros (`12:00:01.5`). The `char*` form writes at most
/// 18 bytes.
size_t format_time(int64_t nanos, char* out);
std::string format_time(int64_t nanos);

/// Spark's text of a day-time interval with fields start..end (DAY=0 ... SECOND=3), as show()
/// and error messages print it: INTERVAL '1 02:03:04.5' DAY TO SECOND.
std::string format_day_time_interval(int64_t micros, int start, int end);

/// Nanoseconds of a time of day truncated to `precision` fractional digits (0..9).
inline int64_t truncate_time(int64_t nanos, int precision) {
  static constexpr int64_t kUnit[] = {1000000000, 100000000, 10000000, 1000000, 100000,
                                      10000,      1000,      100,      10,      1};
  return nanos - nanos % kUnit[precision];
}

}  // namespace ember
