#include "common/datetime_pattern.h"

#include <algorithm>
#include <string>

#include "common/datetime.h"
#include "common/error.h"
#include "common/locale.h"
#include "common/timezone.h"

namespace ember {

namespace {

using Kind = DateTimePattern::Kind;

[[noreturn]] void bad_pattern(const std::string& pattern, const std::string& detail) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                   "Unrecognized datetime pattern: " + pattern +
                       ". Illegal pattern character found in datetime pattern: " + detail +
                       ". Please provide legal character.",
                   {{"pattern", pattern}, {"c", detail}}, "22007");
}

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c | 0x20) : c; }
inline bool is_digit(char c) { return static_cast<unsigned>(c - '0') <= 9; }

// Matches `word` (lower-case) at pos case-insensitively, whole or as its first `prefix` chars.
bool match_word(std::string_view s, size_t pos, const char* word, size_t len) {
  if (pos + len > s.size()) return false;
  for (size_t i = 0; i < len; ++i)
    if (lower(s[pos + i]) != word[i]) return false;
  return true;
}

// The code point of the UTF-8 sequence at s[i], advancing i (a stray byte reads as itself).
uint32_t next_code_point(std::string_view s, size_t& i) {
  const auto b = static_cast<unsigned char>(s[i++]);
  int extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
  uint32_t cp = extra == 3 ? b & 0x07 : extra == 2 ? b & 0x0F : extra == 1 ? b & 0x1F : b;
  for (; extra > 0 && i < s.size(); --extra) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  return cp;
}

// Lower case of the letters the locale tables hold (Latin, Greek, Cyrillic), as java.time's
// case-insensitive parsing compares them.
uint32_t fold(uint32_t c) {
  if (c >= 'A' && c <= 'Z') return c | 0x20;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  if (c >= 0x100 && c <= 0x17F && (c & 1) == 0 && c != 0x130) return c + 1;
  if (c >= 0x391 && c <= 0x3A9) return c + 0x20;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

// Reads a name from `names` (case-insensitively, the longest that matches); returns its
// 1-based index, or 0.
int match_name(std::string_view s, size_t& pos, const char* const* names, int n) {
  int best = 0;
  size_t best_len = 0;
  for (int k = 0; k < n; ++k) {
    const std::string_view name(names[k]);
    size_t i = pos, j = 0;
    bool same = true;
    while (same && j < name.size()) {
      same = i < s.size() && fold(next_code_point(s, i)) == fold(next_code_point(name, j));
    }
    if (same && i - pos > best_len) {
      best = k + 1;
      best_len = i - pos;
    }
  }
  pos += best_len;
  return best;
}

bool is_numeric(Kind k) {
  switch (k) {
    case Kind::kYear: case Kind::kYearReduced: case Kind::kMonth: case Kind::kDay:
    case Kind::kDayOfYear: case Kind::kHour24: case Kind::kHour1To24: case Kind::kHour0To11:
    case Kind::kHour1To12: case Kind::kMinute: case Kind::kSecond:
      return true;
    default:
      return false;
  }
}

// Parses an offset: [Z]|(+|-)HH[[:]mm[[:]ss]]. `allow_z` for X; Z and x never take 'Z'...
// except that Java's Z with five letters does; callers decide.
bool parse_offset(std::string_view s, size_t& pos, bool allow_z, int32_t* out) {
  if (allow_z && pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
    *out = 0;
    return true;
  }
  if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return false;
  const int sign = s[pos] == '-' ? -1 : 1;
  size_t p = pos + 1;
  auto two = [&](int* v) {
    if (p + 2 > s.size() || !is_digit(s[p]) || !is_digit(s[p + 1])) return false;
    *v = (s[p] - '0') * 10 + (s[p + 1] - '0');
    p += 2;
    return true;
  };
  int h = 0, m = 0, sec = 0;
  if (!two(&h)) return false;
  for (int* part : {&m, &sec}) {
    size_t save = p;
    if (p < s.size() && s[p] == ':') ++p;
    if (!two(part)) {
      p = save;
      break;
    }
  }
  if (h > 18 || m > 59 || sec > 59) return false;
  *out = sign * (h * 3600 + m * 60 + sec);
  pos = p;
  return true;
}

}  // namespace

DateTimePattern::DateTimePattern(const std::string& pattern, const LocaleData* locale)
    : pattern_(pattern), locale_(locale ? locale : &us_locale()) {
  std::vector<int> open;
  const size_t n = pattern.size();
  size_t i = 0;
  auto literal = [&](const std::string& text) {
    if (!elements_.empty() && elements_.back().kind == Kind::kLiteral) {
      elements_.back().literal += text;
    } else {
      Element e;
      e.literal = text;
      elements_.push_back(e);
    }
  };
  while (i < n) {
    const char c = pattern[i];
    if (c == '\'') {
      size_t j = i + 1;
      std::string text;
      while (j < n) {
        if (pattern[j] == '\'') {
          if (j + 1 < n && pattern[j + 1] == '\'') {
            text += '\'';
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j++];
      }
      if (j >= n && i + 1 < n) bad_pattern(pattern, "'");
      literal(i + 1 == j ? "'" : text);  // '' outside quotes is one quote
      i = j + 1;
      continue;
    }
    if (c == '[') {
      open.push_back(static_cast<int>(elements_.size()));
      Element e;
      e.kind = Kind::kOptionalBegin;
      elements_.push_back(e);
      ++i;
      continue;
    }
    if (c == ']') {
      if (open.empty()) bad_pattern(pattern, "]");
      elements_[static_cast<size_t>(open.back())].optional_end = static_cast<int>(elements_.size());
      open.pop_back();
      Element e;
      e.kind = Kind::kOptionalEnd;
      elements_.push_back(e);
      ++i;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      literal(std::string(1, c));
      ++i;
      continue;
    }
    size_t j = i;
    while (j < n && pattern[j] == c) ++j;
    const int count = static_cast<int>(j - i);
    i = j;
    Element e;
    e.count = count;
    auto fixed_or_var = [&](int max_count) {
      if (count > max_count) bad_pattern(pattern, std::string(static_cast<size_t>(count), c));
      e.min_width = count == 1 ? 1 : 2;
      e.max_width = 2;
    };
    switch (c) {
      case 'y':
      case 'u':
        if (count == 2) {
          e.kind = Kind::kYearReduced;
          e.min_width = e.max_width = 2;
        } else {
          e.kind = Kind::kYear;
          e.min_width = count;
          e.max_width = 10;
        }
        break;
      case 'M':
      case 'L':
        if (count >= 3) {
          if (count > 4) bad_pattern(pattern, std::string(static_cast<size_t>(count), c));
          e.kind = Kind::kMonthText;
          e.standalone = c == 'L';
        } else {
          e.kind = Kind::kMonth;
          fixed_or_var(2);
        }
        break;
      case 'd': e.kind = Kind::kDay; fixed_or_var(2); break;
      case 'D':
        if (count > 3) bad_pattern(pattern, std::string(static_cast<size_t>(count), c));
        e.kind = Kind::kDayOfYear;
        e.min_width = count;
        e.max_width = 3;
        break;
      case 'E':
        if (count > 4) bad_pattern(pattern, std::string(static_cast<size_t>(count), c));
        e.kind = Kind::kDayOfWeekText;
        break;
      case 'a': e.kind = Kind::kAmPm; break;
      case 'H': e.kind = Kind::kHour24; fixed_or_var(2); break;
      case 'k': e.kind = Kind::kHour1To24; fixed_or_var(2); break;
      case 'K': e.kind = Kind::kHour0To11; fixed_or_var(2); break;
      case 'h': e.kind = Kind::kHour1To12; fixed_or_var(2); break;
      case 'm': e.kind = Kind::kMinute; fixed_or_var(2); break;
      case 's': e.kind = Kind::kSecond; fixed_or_var(2); break;
      case 'S':
        if (count > 9) bad_pattern(pattern, std::string(static_cast<size_t>(count), c));
        e.kind = Kind::kFraction;
        e.min_width = 1;
        e.max_width = count;
        break;
      case 'X': e.kind = Kind::kOffsetX; has_offset_or_zone_ = true; break;
      case 'x': e.kind = Kind::kOffsetx; has_offset_or_zone_ = true; break;
      case 'Z': e.kind = Kind::kOffsetZ; has_offset_or_zone_ = true; break;
      case 'V':
      case 'z': e.kind = Kind::kZoneId; has_offset_or_zone_ = true; break;
      default: bad_pattern(pattern, std::string(1, c));
    }
    elements_.push_back(e);
  }
  if (!open.empty()) bad_pattern(pattern, "[");
}

bool DateTimePattern::parse_range(std::string_view s, size_t& pos, size_t begin, size_t end,
                                  Result* r, int* ampm, int* doy, int* hour12) const {
  for (size_t k = begin; k < end; ++k) {
    const Element& e = elements_[k];
    switch (e.kind) {
      case Kind::kLiteral: {
        const std::string& lit = e.literal;
        if (pos + lit.size() > s.size()) return false;
        for (size_t q = 0; q < lit.size(); ++q)
          if (lower(s[pos + q]) != lower(lit[q])) return false;
        pos += lit.size();
        break;
      }
      case Kind::kOptionalBegin: {
        const size_t save_pos = pos;
        const Result save = *r;
        const int sa = *ampm, sd = *doy, sh = *hour12;
        if (!parse_range(s, pos, k + 1, static_cast<size_t>(e.optional_end), r, ampm, doy, hour12)) {
          pos = save_pos;
          *r = save;
          *ampm = sa;
          *doy = sd;
          *hour12 = sh;
        }
        k = static_cast<size_t>(e.optional_end);
        break;
      }
      case Kind::kOptionalEnd: break;
      case Kind::kMonthText: {
        const char* const* names = e.count == 4 ? (e.standalone ? locale_->standalone : locale_->months)
                                                : (e.standalone ? locale_->standalone_short
                                                                : locale_->months_short);
        const int m = match_name(s, pos, names, 12);
        if (m == 0) return false;
        r->month = m;
        break;
      }
      case Kind::kDayOfWeekText:
        if (match_name(s, pos, e.count == 4 ? locale_->days : locale_->days_short, 7) == 0) return false;
        break;
      case Kind::kAmPm: {
        const char* const markers[] = {locale_->am, locale_->pm};
        const int m = match_name(s, pos, markers, 2);
        if (m == 0) return false;
        *ampm = m - 1;
        break;
      }
      case Kind::kFraction: {
        int digits = 0;
        int64_t v = 0;
        while (pos < s.size() && is_digit(s[pos]) && digits < e.max_width) {
          if (digits < 9) v = v * 10 + (s[pos] - '0');
          ++digits;
          ++pos;
        }
        if (digits < e.min_width) return false;
        for (int q = digits; q < 9; ++q) v *= 10;
        r->micros = static_cast<int>(v / 1000);
        r->sub_micro_nanos = static_cast<int>(v % 1000);
        break;
      }
      case Kind::kOffsetX:
      case Kind::kOffsetx:
      case Kind::kOffsetZ: {
        const bool allow_z = e.kind == Kind::kOffsetX || (e.kind == Kind::kOffsetZ && e.count >= 4);
        if (e.kind == Kind::kOffsetZ && e.count == 4 && match_word(s, pos, "gmt", 3)) {
          pos += 3;
          if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) {
            r->has_offset = true;
            r->offset_seconds = 0;
            break;
          }
        }
        int32_t off;
        if (!parse_offset(s, pos, allow_z, &off)) return false;
        r->has_offset = true;
        r->offset_seconds = off;
        break;
      }
      case Kind::kZoneId: {
        const size_t b = pos;
        while (pos < s.size()) {
          const char c = s[pos];
          if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '/' ||
                c == '_' || c == '+' || c == '-' || c == ':'))
            break;
          ++pos;
        }
        if (pos == b) return false;
        r->zone_id = s.substr(b, pos - b);
        break;
      }
      default: {
        // A number. A variable-width one leaves the digits that adjacent fixed-width numbers
        // after it need (Java's adjacent value parsing).
        // Years of four or more letters take exactly that many digits unless signed (Java's
        // EXCEEDS_PAD in strict mode): '+' only before a longer year, '-' before any.
        bool negative = false;
        int min_width = e.min_width, max_width = e.max_width;
        if (e.kind == Kind::kYear) {
          if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
            negative = s[pos++] == '-';
            if (!negative && e.count >= 4) min_width = e.count + 1;
          } else if (e.count >= 4) {
            max_width = e.count;
          }
        }
        size_t avail = 0;
        while (pos + avail < s.size() && is_digit(s[pos + avail])) ++avail;
        size_t take;
        if (min_width == max_width) {
          take = static_cast<size_t>(min_width);
          if (avail < take) return false;
        } else {
          size_t reserved = 0;
          for (size_t q = k + 1; q < end; ++q) {
            const Element& f = elements_[q];
            if (f.kind == Kind::kFraction) {
              reserved += static_cast<size_t>(f.max_width);
              break;
            }
            if (!is_numeric(f.kind) || f.min_width != f.max_width) break;
            reserved += static_cast<size_t>(f.min_width);
          }
          take = std::min(static_cast<size_t>(max_width), avail > reserved ? avail - reserved : 0);
          if (take < static_cast<size_t>(min_width)) return false;
        }
        int64_t v = 0;
        for (size_t q = 0; q < take; ++q) v = v * 10 + (s[pos + q] - '0');
        if (negative) v = -v;
        pos += take;
        switch (e.kind) {
          case Kind::kYear: r->year = v; break;
          case Kind::kYearReduced: r->year = 2000 + v; break;
          case Kind::kMonth: if (v < 1 || v > 12) return false; r->month = static_cast<int>(v); break;
          case Kind::kDay: if (v < 1 || v > 31) return false; r->day = static_cast<int>(v); break;
          case Kind::kDayOfYear: if (v < 1 || v > 366) return false; *doy = static_cast<int>(v); break;
          case Kind::kHour24: if (v > 23) return false; r->hour = static_cast<int>(v); break;
          case Kind::kHour1To24: if (v < 1 || v > 24) return false; r->hour = static_cast<int>(v % 24); break;
          case Kind::kHour0To11: if (v > 11) return false; *hour12 = static_cast<int>(v); break;
          case Kind::kHour1To12: if (v < 1 || v > 12) return false; *hour12 = static_cast<int>(v % 12); break;
          case Kind::kMinute: if (v > 59) return false; r->minute = static_cast<int>(v); break;
          case Kind::kSecond: if (v > 59) return false; r->second = static_cast<int>(v); break;
          default: return false;
        }
      }
    }
  }
  return true;
}

bool DateTimePattern::parse(std::string_view s, Result* out) const {
  Result r;
  size_t pos = 0;
  int ampm = -1, doy = 0, hour12 = -1;
  if (!parse_range(s, pos, 0, elements_.size(), &r, &ampm, &doy, &hour12)) return false;
  if (pos != s.size()) return false;
  if (hour12 >= 0) r.hour = hour12 + (ampm == 1 ? 12 : 0);
  if (doy > 0) {
    if (doy > (is_leap_year(r.year) ? 366 : 365)) return false;
    const CivilDate c = civil_from_days(days_from_civil(r.year, 1, 1) + doy - 1);
    r.month = c.month;
    r.day = c.day;
  }
  if (!is_valid_date(r.year, r.month, r.day)) return false;
  *out = r;
  return true;
}

bool DateTimePattern::parse_date(std::string_view s, int32_t* days) const {
  Result r;
  if (!parse(s, &r)) return false;
  const int64_t d = days_from_civil(r.year, r.month, r.day);
  if (d < INT32_MIN || d > INT32_MAX) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

bool DateTimePattern::parse_timestamp(std::string_view s, const TimeZone& zone,
                                      int64_t* micros) const {
  Result r;
  if (!parse(s, &r)) return false;
  TimestampParts p;
  p.year = r.year;
  p.month = r.month;
  p.day = r.day;
  p.hour = r.hour;
  p.minute = r.minute;
  p.second = r.second;
  p.micros = r.micros;
  int64_t local;
  if (!local_micros_of(p, &local)) return false;
  int64_t offset;
  if (r.has_offset) {
    offset = r.offset_seconds;
  } else {
    const TimeZone* tz = &zone;
    if (!r.zone_id.empty()) {
      tz = TimeZone::find(std::string(r.zone_id));
      if (!tz) return false;
    }
    offset = tz->offset_seconds_at_local(floor_div(local, kMicrosPerSecond));
  }
  return !__builtin_sub_overflow(local, offset * kMicrosPerSecond, micros);
}

bool DateTimePattern::parse_timestamp_ntz(std::string_view s, int64_t* micros) const {
  Result r;
  if (!parse(s, &r) || r.has_offset || !r.zone_id.empty()) return false;
  TimestampParts p;
  p.year = r.year;
  p.month = r.month;
  p.day = r.day;
  p.hour = r.hour;
  p.minute = r.minute;
  p.second = r.second;
  p.micros = r.micros;
  return local_micros_of(p, micros);
}

}  // namespace ember
