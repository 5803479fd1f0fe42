#include "common/calendar_interval.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace ember {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

void append_unit(std::string& out, int64_t value, const char* unit) {
  if (value == 0) return;
  out += std::to_string(value);
  out += ' ';
  out += unit;
  out += ' ';
}

/// Java's (long) of a double: NaN is 0, out-of-range values saturate.
int64_t double_to_long(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

/// Java's Math.round(double): floor(d + 0.5), saturating, NaN 0.
int64_t java_round(double d) { return double_to_long(std::floor(d + 0.5)); }

bool to_int32(int64_t v, int32_t* out) {
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

bool lower_equals(std::string_view s, std::string_view word) {
  if (s.size() != word.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != word[i]) return false;
  return true;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::string format_calendar_interval(const CalendarInterval& v) {
  if (v.months == 0 && v.days == 0 && v.micros == 0) return "0 seconds";
  std::string out;
  if (v.months != 0) {
    append_unit(out, v.months / 12, "years");
    append_unit(out, v.months % 12, "months");
  }
  append_unit(out, v.days, "days");
  if (v.micros != 0) {
    int64_t rest = v.micros;
    append_unit(out, rest / kMicrosPerHour, "hours");
    rest %= kMicrosPerHour;
    append_unit(out, rest / kMicrosPerMinute, "minutes");
    rest %= kMicrosPerMinute;
    if (rest != 0) {
      // BigDecimal.valueOf(rest, 6).stripTrailingZeros().toPlainString()
      uint64_t magnitude = rest < 0 ? 0 - static_cast<uint64_t>(rest) : static_cast<uint64_t>(rest);
      std::string text = std::to_string(magnitude / kMicrosPerSecond);
      std::string fraction = std::to_string(magnitude % kMicrosPerSecond);
      fraction.insert(0, 6 - fraction.size(), '0');
      while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
      if (!fraction.empty()) text += "." + fraction;
      out += (rest < 0 ? "-" : "") + text + " seconds ";
    }
  }
  out.pop_back();
  return out;
}

std::optional<CalendarInterval> parse_calendar_interval(std::string_view s) {
  size_t i = 0;
  auto skip_spaces = [&]() {
    while (i < s.size() && is_space(s[i])) ++i;
  };
  skip_spaces();
  if (s.size() - i >= 8 && lower_equals(s.substr(i, 8), "interval")) {
    i += 8;
    if (i < s.size() && !is_space(s[i])) return std::nullopt;
  }
  skip_spaces();
  if (i == s.size()) return std::nullopt;
  int64_t months = 0, days = 0, micros = 0;
  while (true) {
    skip_spaces();
    if (i == s.size()) break;
    bool negative = false;
    if (s[i] == '-' || s[i] == '+') {
      negative = s[i] == '-';
      ++i;
      skip_spaces();
    }
    // The magnitude, negated afterwards as Spark does (so the long minimum is out of reach).
    int64_t value = 0;
    size_t digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, s[i++] - '0', &value))
        return std::nullopt;
      ++digits;
    }
    if (negative) value = -value;
    int64_t fraction = 0;  // microseconds
    bool has_fraction = false;
    if (i < s.size() && s[i] == '.') {
      has_fraction = true;
      ++i;
      int64_t scale = 100000;
      size_t fraction_digits = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        if (fraction_digits++ >= 9) return std::nullopt;
        fraction += (s[i++] - '0') * scale;
        scale /= 10;
      }
      if (negative) fraction = -fraction;
      digits += fraction_digits;
    }
    if (digits == 0) return std::nullopt;
    size_t before_unit = i;
    skip_spaces();
    if (i == before_unit || i == s.size()) return std::nullopt;
    size_t unit_begin = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    std::string_view unit = s.substr(unit_begin, i - unit_begin);
    if (i < s.size() && !is_space(s[i])) return std::nullopt;
    if (unit.size() > 1 && (unit.back() == 's' || unit.back() == 'S')) unit.remove_suffix(1);
    auto add = [](int64_t* field, int64_t v, int64_t factor) {
      int64_t scaled;
      return !__builtin_mul_overflow(v, factor, &scaled) && !__builtin_add_overflow(*field, scaled, field);
    };
    if (has_fraction && !lower_equals(unit, "second")) return std::nullopt;
    bool ok;
    if (lower_equals(unit, "year")) ok = add(&months, value, 12) && months >= INT32_MIN && months <= INT32_MAX;
    else if (lower_equals(unit, "month")) ok = add(&months, value, 1) && months >= INT32_MIN && months <= INT32_MAX;
    else if (lower_equals(unit, "week")) ok = add(&days, value, 7) && days >= INT32_MIN && days <= INT32_MAX;
    else if (lower_equals(unit, "day")) ok = add(&days, value, 1) && days >= INT32_MIN && days <= INT32_MAX;
    else if (lower_equals(unit, "hour")) ok = add(&micros, value, kMicrosPerHour);
    else if (lower_equals(unit, "minute")) ok = add(&micros, value, kMicrosPerMinute);
    else if (lower_equals(unit, "second")) ok = add(&micros, value, kMicrosPerSecond) && add(&micros, fraction, 1);
    else if (lower_equals(unit, "millisecond")) ok = add(&micros, value, 1000);
    else if (lower_equals(unit, "microsecond")) ok = add(&micros, value, 1);
    else ok = false;
    if (!ok) return std::nullopt;
  }
  return CalendarInterval{static_cast<int32_t>(months), static_cast<int32_t>(days), micros};
}

bool add_calendar_intervals(const CalendarInterval& a, const CalendarInterval& b, bool subtract,
                            CalendarInterval* out) {
  if (subtract)
    return !__builtin_sub_overflow(a.months, b.months, &out->months) &&
           !__builtin_sub_overflow(a.days, b.days, &out->days) &&
           !__builtin_sub_overflow(a.micros, b.micros, &out->micros);
  return !__builtin_add_overflow(a.months, b.months, &out->months) &&
         !__builtin_add_overflow(a.days, b.days, &out->days) &&
         !__builtin_add_overflow(a.micros, b.micros, &out->micros);
}

bool negate_calendar_interval(const CalendarInterval& a, CalendarInterval* out) {
  return add_calendar_intervals(CalendarInterval{}, a, true, out);
}

bool scale_calendar_interval(const CalendarInterval& a, double num, bool divide, bool saturate,
                             CalendarInterval* out) {
  const double months = divide ? a.months / num : a.months * num;
  const double days = divide ? a.days / num : a.days * num;
  const double micros = divide ? static_cast<double>(a.micros) / num : static_cast<double>(a.micros) * num;
  int64_t whole_months = double_to_long(months), whole_days = double_to_long(days);
  if (saturate) {
    whole_months = std::clamp<int64_t>(whole_months, INT32_MIN, INT32_MAX);
    whole_days = std::clamp<int64_t>(whole_days, INT32_MIN, INT32_MAX);
  }
  if (!to_int32(whole_months, &out->months) || !to_int32(whole_days, &out->days)) return false;
  out->micros = java_round(micros + static_cast<double>(kMicrosPerDay) * (days - static_cast<double>(whole_days)));
  return true;
}

bool make_calendar_interval(int32_t years, int32_t months, int32_t weeks, int32_t days, int32_t hours,
                            int32_t mins, int64_t sec_micros, CalendarInterval* out) {
  int32_t year_months, week_days;
  int64_t hour_micros, min_micros;
  return !__builtin_mul_overflow(years, 12, &year_months) &&
         !__builtin_add_overflow(months, year_months, &out->months) &&
         !__builtin_mul_overflow(weeks, 7, &week_days) &&
         !__builtin_add_overflow(days, week_days, &out->days) &&
         !__builtin_mul_overflow(static_cast<int64_t>(hours), kMicrosPerHour, &hour_micros) &&
         !__builtin_mul_overflow(static_cast<int64_t>(mins), kMicrosPerMinute, &min_micros) &&
         !__builtin_add_overflow(sec_micros, hour_micros, &out->micros) &&
         !__builtin_add_overflow(out->micros, min_micros, &out->micros);
}

void throw_cannot_parse_interval(const std::string& text, ErrorKind kind) {
  throw SparkError(kind, "CANNOT_PARSE_INTERVAL",
                   "Unable to parse '" + text +
                       "'. Please ensure that the value provided is in a valid format for defining an interval. "
                       "You can reference the documentation for the correct format. If the issue persists, please "
                       "double check that the input value is not null or empty and try again.",
                   {{"intervalString", "'" + text + "'"}}, "22006");
}

}  // namespace ember
