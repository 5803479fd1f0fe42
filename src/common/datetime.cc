#include "common/datetime.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "common/timezone.h"

namespace ember {

CivilDate civil_from_days(int64_t days) {
  const int64_t z = days + 719468;
  const int64_t era = floor_div(z, 146097);
  const int64_t doe = z - era * 146097;                                      // [0, 146096]
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);               // [0, 365]
  const int64_t mp = (5 * doy + 2) / 153;                                    // [0, 11]
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2), m, d};
}

int64_t add_months_to_days(int64_t days, int64_t months) {
  CivilDate c = civil_from_days(days);
  int64_t total = c.year * 12 + (c.month - 1) + months;
  int64_t y = floor_div(total, 12);
  int m = static_cast<int>(floor_mod(total, 12)) + 1;
  return days_from_civil(y, m, std::min(c.day, days_in_month(y, m)));
}

namespace {

inline bool is_space(char c) { return static_cast<unsigned char>(c) <= ' '; }

std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Digit-count rules of the default timestamp parser, per segment: year 4..6 digits, the
// fraction any number (truncated), the zone segment none, the others 1..2.
bool valid_timestamp_digits(int segment, int digits) {
  return segment == 6 || (segment == 0 && digits >= 4 && digits <= 6) ||
         (segment == 7 && digits <= 2) ||
         (segment != 0 && segment != 6 && segment != 7 && digits > 0 && digits <= 2);
}

}  // namespace

bool parse_timestamp_parts(std::string_view input, TimestampParts* out) {
  std::string_view s = trim(input);
  if (s.empty()) return false;
  int64_t seg[9] = {1, 1, 1, 0, 0, 0, 0, 0, 0};
  int i = 0;
  int64_t value = 0;
  int digits = 0;
  int fraction_digits = 0;
  bool just_time = false;
  int year_sign = 0;
  std::string_view zone;
  size_t j = 0;
  const size_t n = s.size();
  if (s[0] == '-' || s[0] == '+') {
    year_sign = s[0] == '-' ? -1 : 1;
    j = 1;
  }
  while (j < n) {
    const char b = s[j];
    const unsigned d = static_cast<unsigned>(b - '0');
    if (d > 9) {
      if (j == 0 && b == 'T') {
        just_time = true;
        i += 3;
      } else if (i < 2) {
        if (b == '-') {
          if (!valid_timestamp_digits(i, digits)) return false;
          seg[i++] = value;
          value = 0;
          digits = 0;
        } else if (i == 0 && b == ':' && year_sign == 0) {
          just_time = true;
          if (!valid_timestamp_digits(3, digits)) return false;
          seg[3] = value;
          value = 0;
          digits = 0;
          i = 4;
        } else {
          return false;
        }
      } else if (i == 2) {
        if (b != ' ' && b != 'T') return false;
        if (!valid_timestamp_digits(i, digits)) return false;
        seg[i++] = value;
        value = 0;
        digits = 0;
      } else if (i == 3 || i == 4) {
        if (b != ':') return false;
        if (!valid_timestamp_digits(i, digits)) return false;
        seg[i++] = value;
        value = 0;
        digits = 0;
      } else if (i == 5 || i == 6) {
        if (b == '.' && i == 5) {
          if (!valid_timestamp_digits(i, digits)) return false;
          seg[i++] = value;
          value = 0;
          digits = 0;
        } else {
          if (!valid_timestamp_digits(i, digits)) return false;
          seg[i++] = value;
          value = 0;
          digits = 0;
          zone = trim(s.substr(j));
          j = n - 1;
        }
        if (i == 6 && b != '.') ++i;
      } else {
        return false;
      }
    } else {
      if (digits >= 18 && i != 6) return false;  // a 19th digit could overflow `value`
      if (i == 6) ++fraction_digits;
      if (i != 6 || digits < 6) value = value * 10 + d;
      ++digits;
    }
    ++j;
  }
  if (!valid_timestamp_digits(i, digits)) return false;
  seg[i] = value;
  int64_t frac = seg[6];
  for (int k = fraction_digits; k < 6; ++k) frac *= 10;
  if (year_sign != 0) seg[0] *= year_sign;
  out->year = seg[0];
  out->month = static_cast<int>(seg[1]);
  out->day = static_cast<int>(seg[2]);
  out->hour = static_cast<int>(seg[3]);
  out->minute = static_cast<int>(seg[4]);
  out->second = static_cast<int>(seg[5]);
  out->micros = static_cast<int>(frac);
  out->just_time = just_time;
  out->zone = zone;
  if (out->hour > 23 || out->minute > 59 || out->second > 59) return false;
  if (!just_time && !is_valid_date(out->year, out->month, out->day)) return false;
  return true;
}

bool local_micros_of(const TimestampParts& p, int64_t* micros) {
  const int64_t days = days_from_civil(p.year, p.month, p.day);
  const int64_t secs = days * kSecondsPerDay + p.hour * 3600 + p.minute * 60 + p.second;
  int64_t r;
  if (__builtin_mul_overflow(secs, kMicrosPerSecond, &r)) return false;
  if (__builtin_add_overflow(r, static_cast<int64_t>(p.micros), &r)) return false;
  *micros = r;
  return true;
}

bool parse_date(std::string_view input, int32_t* days) {
  std::string_view s = trim(input);
  if (s.empty()) return false;
  int64_t seg[3] = {1, 1, 1};
  int sign = 1;
  int i = 0;
  int64_t value = 0;
  int digits = 0;
  size_t j = 0;
  const size_t n = s.size();
  auto valid = [](int segment, int d) {
    return (segment == 0 && d >= 4 && d <= 7) || (segment != 0 && d > 0 && d <= 2);
  };
  if (s[0] == '-' || s[0] == '+') {
    sign = s[0] == '-' ? -1 : 1;
    j = 1;
  }
  while (j < n && i < 3 && !(s[j] == ' ' || s[j] == 'T')) {
    const char b = s[j];
    if (i < 2 && b == '-') {
      if (!valid(i, digits)) return false;
      seg[i++] = value;
      value = 0;
      digits = 0;
    } else {
      const unsigned d = static_cast<unsigned>(b - '0');
      if (d > 9) return false;
      value = value * 10 + d;
      if (++digits > 7) return false;
    }
    ++j;
  }
  if (!valid(i, digits)) return false;
  if (i < 2 && j < n) return false;  // `yyyy` and `yyyy-[m]m` must consume the whole input
  seg[i] = value;
  const int64_t y = sign * seg[0];
  if (!is_valid_date(y, static_cast<int>(seg[1]), static_cast<int>(seg[2]))) return false;
  const int64_t d = days_from_civil(y, static_cast<int>(seg[1]), static_cast<int>(seg[2]));
  if (d < INT32_MIN || d > INT32_MAX) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

namespace {

inline unsigned digit(char c) { return static_cast<unsigned>(c - '0'); }

// The common shape `yyyy-MM-dd HH:mm:ss` (or with `T`), parsed without the general state
// machine; false when `s` has another shape (the general parser then decides).
inline bool parse_canonical_timestamp(std::string_view s, TimestampParts* p) {
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
      s[13] != ':' || s[16] != ':') {
    return false;
  }
  static constexpr int kDigits[] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18};
  for (int i : kDigits)
    if (digit(s[static_cast<size_t>(i)]) > 9) return false;
  p->year = digit(s[0]) * 1000 + digit(s[1]) * 100 + digit(s[2]) * 10 + digit(s[3]);
  p->month = static_cast<int>(digit(s[5]) * 10 + digit(s[6]));
  p->day = static_cast<int>(digit(s[8]) * 10 + digit(s[9]));
  p->hour = static_cast<int>(digit(s[11]) * 10 + digit(s[12]));
  p->minute = static_cast<int>(digit(s[14]) * 10 + digit(s[15]));
  p->second = static_cast<int>(digit(s[17]) * 10 + digit(s[18]));
  p->micros = 0;
  p->just_time = false;
  p->zone = {};
  return p->hour <= 23 && p->minute <= 59 && p->second <= 59 &&
         is_valid_date(p->year, p->month, p->day);
}

}  // namespace

bool parse_timestamp(std::string_view s, const TimeZone& session, int64_t* micros) {
  TimestampParts p;
  if (parse_canonical_timestamp(s, &p)) {
    const int64_t local = (days_from_civil(p.year, p.month, p.day) * kSecondsPerDay +
                           p.hour * 3600 + p.minute * 60 + p.second);
    *micros = (local - session.offset_seconds_at_local(local)) * kMicrosPerSecond;
    return true;
  }
  if (!parse_timestamp_parts(s, &p)) return false;
  const TimeZone* zone = &session;
  if (!p.zone.empty()) {
    zone = TimeZone::find(std::string(p.zone));
    if (!zone) return false;
  }
  if (p.just_time) {
    // A time alone means today, in the zone of the value.
    const int64_t now = static_cast<int64_t>(std::time(nullptr));
    const int64_t local_now = now + zone->offset_seconds_at_utc(now);
    const CivilDate today = civil_from_days(floor_div(local_now, kSecondsPerDay));
    p.year = today.year;
    p.month = today.month;
    p.day = today.day;
  }
  int64_t local;
  if (!local_micros_of(p, &local)) return false;
  const int64_t offset = zone->offset_seconds_at_local(floor_div(local, kMicrosPerSecond));
  return !__builtin_sub_overflow(local, offset * kMicrosPerSecond, micros);
}

bool parse_timestamp_ntz(std::string_view s, int64_t* micros) {
  TimestampParts p;
  if (parse_canonical_timestamp(s, &p)) return local_micros_of(p, micros);
  if (!parse_timestamp_parts(s, &p) || p.just_time || !p.zone.empty()) return false;
  return local_micros_of(p, micros);
}

namespace {

char* put2(char* o, int v) {
  o[0] = static_cast<char>('0' + v / 10);
  o[1] = static_cast<char>('0' + v % 10);
  return o + 2;
}

char* put_year(char* o, int64_t y) {
  if (y > 9999) *o++ = '+';
  if (y < 0) {
    *o++ = '-';
    y = -y;
  }
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + y % 10);
    y /= 10;
  } while (y > 0);
  while (n < 4) tmp[n++] = '0';
  while (n > 0) *o++ = tmp[--n];
  return o;
}

char* put_date(char* o, int64_t days) {
  const CivilDate c = civil_from_days(days);
  o = put_year(o, c.year);
  *o++ = '-';
  o = put2(o, c.month);
  *o++ = '-';
  return put2(o, c.day);
}

}  // namespace

namespace {

/// HH:mm:ss of `secs` into the day, then `.` and the fraction (`frac` of `digits` digits)
/// without its trailing zeros, when there is one.
char* put_clock(char* o, int64_t secs, int64_t frac, int digits) {
  o = put2(o, static_cast<int>(secs / 3600));
  *o++ = ':';
  o = put2(o, static_cast<int>(secs / 60 % 60));
  *o++ = ':';
  o = put2(o, static_cast<int>(secs % 60));
  if (frac == 0) return o;
  *o++ = '.';
  int width = digits;
  while (frac % 10 == 0) {
    frac /= 10;
    --width;
  }
  for (int k = width - 1; k >= 0; --k) {
    o[k] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  return o + width;
}

}  // namespace

size_t format_date(int32_t days, char* out) { return static_cast<size_t>(put_date(out, days) - out); }

size_t format_local_timestamp(int64_t local_micros, char* out) {
  const int64_t days = floor_div(local_micros, kMicrosPerDay);
  int64_t rem = local_micros - days * kMicrosPerDay;
  char* o = put_date(out, days);
  *o++ = ' ';
  o = put_clock(o, rem / kMicrosPerSecond, rem % kMicrosPerSecond, 6);
  return static_cast<size_t>(o - out);
}

std::string format_date(int32_t days) {
  char buf[48];
  return std::string(buf, format_date(days, buf));
}

std::string format_timestamp(int64_t utc_micros, const TimeZone& zone) {
  char buf[48];
  const int64_t offset = zone.offset_seconds_at_utc(floor_div(utc_micros, kMicrosPerSecond)) * kMicrosPerSecond;
  int64_t local;
  if (!__builtin_add_overflow(utc_micros, offset, &local)) return std::string(buf, format_local_timestamp(local, buf));
  // Local times of the extreme instants pass the microsecond range (the earliest one west of
  // UTC): days and the time of day are taken apart before the offset is applied.
  const int64_t days = floor_div(utc_micros, kMicrosPerDay);
  const int64_t tod = utc_micros - days * kMicrosPerDay + offset;
  const int64_t local_days = days + floor_div(tod, kMicrosPerDay);
  const int64_t rem = floor_mod(tod, kMicrosPerDay);
  char* o = put_date(buf, local_days);
  *o++ = ' ';
  o = put_clock(o, rem / kMicrosPerSecond, rem % kMicrosPerSecond, 6);
  return std::string(buf, static_cast<size_t>(o - buf));
}

std::string format_timestamp_ntz(int64_t micros) {
  char buf[48];
  return std::string(buf, format_local_timestamp(micros, buf));
}

int64_t now_micros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

/// Reads 1 or 2 digits at s[*i]; false when there are none or more than two.
bool read_two_digits(std::string_view s, size_t* i, int* out) {
  size_t start = *i;
  int v = 0;
  while (*i < s.size() && s[*i] >= '0' && s[*i] <= '9') {
    v = v * 10 + (s[*i] - '0');
    ++*i;
  }
  size_t n = *i - start;
  if (n < 1 || n > 2) return false;
  *out = v;
  return true;
}

}  // namespace

bool parse_time(std::string_view s, int64_t* nanos) {
  s = trim(s);
  if (!s.empty() && s.front() == 'T') s.remove_prefix(1);
  size_t i = 0;
  int h = 0, m = 0, sec = 0;
  int64_t frac = 0;
  if (!read_two_digits(s, &i, &h) || i >= s.size() || s[i] != ':') return false;
  ++i;
  if (!read_two_digits(s, &i, &m)) return false;
  if (i < s.size()) {
    if (s[i] != ':') return false;
    ++i;
    if (!read_two_digits(s, &i, &sec)) return false;
    if (i < s.size()) {
      if (s[i] != '.') return false;
      ++i;
      int digits = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (digits < 9) frac = frac * 10 + (s[i] - '0');  // digits past nanoseconds are cut
        ++digits, ++i;
      }
      digits = std::min(digits, 9);
      if (i != s.size()) return false;
      for (int k = digits; k < 9; ++k) frac *= 10;
    }
  }
  if (h > 23 || m > 59 || sec > 59) return false;
  *nanos = (h * 3600LL + m * 60LL + sec) * kNanosPerSecond + frac;
  return true;
}

int time_string_fraction_digits(std::string_view s) {
  s = trim(s);
  size_t dot = s.find('.');
  return dot == std::string_view::npos ? 0 : static_cast<int>(s.size() - dot - 1);
}

size_t format_time(int64_t nanos, char* out) {
  char* o = out;
  o = put_clock(o, nanos / kNanosPerSecond, nanos % kNanosPerSecond, 9);
  return static_cast<size_t>(o - out);
}

std::string format_time(int64_t nanos) {
  char buf[32];
  return std::string(buf, format_time(nanos, buf));
}

namespace {

std::string two_digits(int64_t v) {
  std::string s = std::to_string(v);
  return s.size() < 2 ? "0" + s : s;
}

/// Seconds with up to six fraction digits, trailing zeros removed, at least two integer digits.
std::string seconds_text(int64_t micros) {
  std::string s = std::to_string(micros / 1000000);
  int64_t frac = micros % 1000000;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 6 - f.size(), '0');
    while (!f.empty() && f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return micros < 10 * 1000000LL ? "0" + s : s;
}

}  // namespace

std::string format_day_time_interval(int64_t micros, int start, int end) {
  static const char* kFields[] = {"DAY", "HOUR", "MINUTE", "SECOND"};
  constexpr int64_t kMicrosPerHour = 3600LL * 1000000;
  constexpr int64_t kMicrosPerMinute = 60LL * 1000000;
  std::string suffix = "' ";
  suffix += start == end ? kFields[start] : std::string(kFields[start]) + " TO " + kFields[end];
  if (micros == INT64_MIN) {
    // The magnitude does not fit in int64; Spark spells this value out.
    static const char* kFirst[] = {"-106751991", "-2562047788", "-153722867280",
                                   "-9223372036854.775808"};
    const std::string base = "-106751991 04:00:54.775808000";
    std::string rest;
    if (start != end) {
      static const size_t kStart[] = {10, 13, 16};
      static const size_t kEnd[] = {0, 13, 16, 26};
      rest = base.substr(kStart[start], kEnd[end] - kStart[start]);
    }
    return "INTERVAL '" + std::string(kFirst[start]) + rest + suffix;
  }
  std::string body = micros < 0 ? "-" : "";
  int64_t rest = micros < 0 ? -micros : micros;
  switch (start) {
    case 0:
      body += std::to_string(rest / kMicrosPerDay);
      rest %= kMicrosPerDay;
      break;
    case 1:
      body += two_digits(rest / kMicrosPerHour);
      rest %= kMicrosPerHour;
      break;
    case 2:
      body += two_digits(rest / kMicrosPerMinute);
      rest %= kMicrosPerMinute;
      break;
    default:
      body += seconds_text(rest);
      break;
  }
  if (start < 1 && 1 <= end) {
    body += " " + two_digits(rest / kMicrosPerHour);
    rest %= kMicrosPerHour;
  }
  if (start < 2 && 2 <= end) {
    body += ":" + two_digits(rest / kMicrosPerMinute);
    rest %= kMicrosPerMinute;
  }
  if (start < 3 && 3 <= end) body += ":" + seconds_text(rest);
  return "INTERVAL '" + body + suffix;
}

}  // namespace ember
