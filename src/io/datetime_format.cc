#include "io/datetime_format.h"

#include <cstdio>

#include "common/datetime.h"
#include "common/error.h"
#include "common/locale.h"
#include "common/timezone.h"

namespace ember::io {

namespace {

[[noreturn]] void bad_pattern(const std::string& pattern) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                   "Unrecognized datetime pattern: " + pattern + ".", {{"pattern", pattern}});
}

void pad(std::string& out, int64_t v, int width) {
  char buf[32];
  if (v < 0) {
    out += '-';
    v = -v;
  }
  std::snprintf(buf, sizeof buf, "%0*lld", width, static_cast<long long>(v));
  out += buf;
}

}  // namespace

DateTimeFormatter::DateTimeFormatter(std::string pattern, const LocaleData* locale)
    : pattern_(std::move(pattern)), locale_(locale ? locale : &us_locale()) {
  // Formatting a sample validates the pattern, so a bad one fails before any file is written.
  (void)format(0, 0, true);
}

std::string DateTimeFormatter::format_date(int32_t days) const {
  return format(static_cast<int64_t>(days) * 86400000000LL, 0, false);
}

std::string DateTimeFormatter::format_timestamp(int64_t utc_micros, const TimeZone& zone) const {
  const int64_t offset = zone.offset_seconds_at_utc(floor_div(utc_micros, 1000000));
  return format(utc_micros + offset * 1000000, offset, true);
}

std::string DateTimeFormatter::format_timestamp_ntz(int64_t micros) const {
  return format(micros, 0, false);
}

std::string DateTimeFormatter::format(int64_t local_micros, int64_t offset, bool has_offset) const {
  const int64_t days = floor_div(local_micros, 86400000000LL);
  const int64_t in_day = local_micros - days * 86400000000LL;
  const CivilDate d = civil_from_days(days);
  const int hour = static_cast<int>(in_day / 3600000000LL);
  const int minute = static_cast<int>(in_day / 60000000LL % 60);
  const int second = static_cast<int>(in_day / 1000000 % 60);
  const int micros = static_cast<int>(in_day % 1000000);
  std::string out;
  const std::string& p = pattern_;
  for (size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '\'') {
      size_t j = i + 1;
      if (j < p.size() && p[j] == '\'') {
        out += '\'';
        i += 2;
        continue;
      }
      while (j < p.size() && p[j] != '\'') out += p[j++];
      i = j + 1;
      continue;
    }
    if (c == '[' || c == ']') {
      ++i;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      out += c;
      ++i;
      continue;
    }
    size_t n = 1;
    while (i + n < p.size() && p[i + n] == c) ++n;
    const int w = static_cast<int>(n);
    switch (c) {
      case 'y':
      case 'u':
        if (w == 2) pad(out, d.year % 100, 2);
        else pad(out, d.year, std::max(w, 4));
        break;
      case 'M':
      case 'L': {
        const LocaleData& l = *locale_;
        if (w >= 4) out += (c == 'L' ? l.standalone : l.months)[d.month - 1];
        else if (w == 3) out += (c == 'L' ? l.standalone_short : l.months_short)[d.month - 1];
        else pad(out, d.month, w);
        break;
      }
      case 'd': pad(out, d.day, w); break;
      case 'H': pad(out, hour, w); break;
      case 'h': pad(out, hour % 12 == 0 ? 12 : hour % 12, w); break;
      case 'a': out += hour < 12 ? locale_->am : locale_->pm; break;
      case 'm': pad(out, minute, w); break;
      case 's': pad(out, second, w); break;
      case 'S': {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%06d", micros);
        std::string frac(buf);
        if (w <= 6) out += frac.substr(0, static_cast<size_t>(w));
        else out += frac + std::string(static_cast<size_t>(w - 6), '0');
        break;
      }
      case 'E': out += (w >= 4 ? locale_->days : locale_->days_short)[iso_day_of_week(days) - 1]; break;
      case 'X':
      case 'x':
      case 'Z': {
        if (!has_offset) {
          throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                           "Unrecognized datetime pattern: " + p + ".", {{"pattern", p}});
        }
        if (c == 'X' && offset == 0) {
          out += 'Z';
          break;
        }
        const int64_t a = offset < 0 ? -offset : offset;
        out += offset < 0 ? '-' : '+';
        pad(out, a / 3600, 2);
        const bool colon = (c != 'Z' && w >= 3) || (c == 'Z' && w == 5);
        if (w >= 2 || a % 3600 != 0 || c == 'Z') {
          if (colon) out += ':';
          pad(out, a / 60 % 60, 2);
        }
        break;
      }
      default: bad_pattern(p);
    }
    i += n;
  }
  return out;
}

}  // namespace ember::io
