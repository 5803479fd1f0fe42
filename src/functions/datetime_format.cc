// Datetime patterns: to_date, to_timestamp (to_timestamp_ltz), to_timestamp_ntz,
// unix_timestamp/to_unix_timestamp (parsing with common/datetime_pattern), date_format and from_unixtime (formatting with the pattern letters
// of Spark's DateTimeFormatter use).

#include <chrono>

#include "common/datetime.h"
#include "common/datetime_pattern.h"
#include "common/timezone.h"
#include "functions/java_form.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

constexpr const char* kDefaultPattern = "yyyy-MM-dd HH:mm:ss";

[[noreturn]] void bad_pattern(const std::string& pattern, const std::string& why) {
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                   "Unrecognized datetime pattern: " + pattern + ". " + why,
                   {{"pattern", pattern}});
}

/// date_format of a TIME takes patterns of time fields only (H h K k m s S a, quoted text and
/// other symbols).
void check_time_pattern(std::string_view pattern) {
  bool quoted = false;
  for (char c : pattern) {
    if (c == '\'') {
      quoted = !quoted;
      continue;
    }
    if (quoted || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) continue;
    if (std::string_view("HhKkmsSa").find(c) == std::string_view::npos) {
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.PATTERN",
                       "The value of parameter(s) `format` in `date_format` is invalid: '" +
                           std::string(pattern) + "'.",
                       {{"parameter", "`format`"}, {"functionName", "`date_format`"},
                        {"invalidValue", "'" + std::string(pattern) + "'"}},
                       "22023");
    }
  }
}

/// The English names java.time gives a region's zone (pattern letters z, zzzz, v, vvvv): short
/// and long, standard and daylight, and the generic ones. Offsets are seconds east of UTC; a
/// time is daylight when its offset is the zone's daylight one.
struct ZoneNames {
  const char* zones;  // region ids, separated by spaces
  int32_t standard, daylight;
  const char *short_std, *short_dst, *long_std, *long_dst, *short_generic, *long_generic;
};

constexpr ZoneNames kZoneNames[] = {
    {"UTC Etc/UTC Etc/UCT UCT Universal Zulu Etc/Universal Etc/Zulu", 0, 0, "UTC", "UTC",
     "Coordinated Universal Time", "Coordinated Universal Time", "UTC", "Coordinated Universal Time"},
    {"GMT Etc/GMT Etc/Greenwich Greenwich", 0, 0, "GMT", "GMT", "Greenwich Mean Time", "Greenwich Mean Time",
     "GMT", "Greenwich Mean Time"},
    {"America/Los_Angeles US/Pacific America/Vancouver America/Tijuana PST8PDT", -28800, -25200, "PST", "PDT",
     "Pacific Standard Time", "Pacific Daylight Time", "PT", "Pacific Time"},
    {"America/Denver US/Mountain America/Edmonton America/Boise MST7MDT America/Phoenix US/Arizona", -25200,
     -21600, "MST", "MDT", "Mountain Standard Time", "Mountain Daylight Time", "MT", "Mountain Time"},
    {"America/Chicago US/Central America/Winnipeg CST6CDT", -21600, -18000, "CST", "CDT", "Central Standard Time",
     "Central Daylight Time", "CT", "Central Time"},
    {"America/New_York US/Eastern America/Toronto America/Detroit EST5EDT", -18000, -14400, "EST", "EDT",
     "Eastern Standard Time", "Eastern Daylight Time", "ET", "Eastern Time"},
    {"America/Halifax Canada/Atlantic", -14400, -10800, "AST", "ADT", "Atlantic Standard Time",
     "Atlantic Daylight Time", "AT", "Atlantic Time"},
    {"America/St_Johns Canada/Newfoundland", -12600, -9000, "NST", "NDT", "Newfoundland Standard Time",
     "Newfoundland Daylight Time", "NT", "Newfoundland Time"},
    {"America/Anchorage US/Alaska", -32400, -28800, "AKST", "AKDT", "Alaska Standard Time",
     "Alaska Daylight Time", "AKT", "Alaska Time"},
    {"Pacific/Honolulu US/Hawaii", -36000, -32400, "HST", "HDT", "Hawaii-Aleutian Standard Time",
     "Hawaii-Aleutian Daylight Time", "HST", "Hawaii-Aleutian Time"},
    {"America/Sao_Paulo Brazil/East", -10800, -7200, "BRT", "BRST", "Brasilia Standard Time",
     "Brasilia Summer Time", "BRT", "Brasilia Time"},
    {"Europe/London GB Europe/Belfast", 0, 3600, "GMT", "BST", "Greenwich Mean Time", "British Summer Time",
     "BT", "British Time"},
    {"Europe/Lisbon Portugal", 0, 3600, "WET", "WEST", "Western European Standard Time",
     "Western European Summer Time", "WET", "Western European Time"},
    {"Europe/Paris Europe/Berlin Europe/Madrid Europe/Rome Europe/Amsterdam Europe/Brussels Europe/Vienna "
     "Europe/Zurich Europe/Stockholm Europe/Oslo Europe/Copenhagen Europe/Warsaw Europe/Prague Europe/Budapest "
     "CET",
     3600, 7200, "CET", "CEST", "Central European Standard Time", "Central European Summer Time", "CET",
     "Central European Time"},
    {"Europe/Moscow W-SU", 10800, 14400, "MSK", "MSD", "Moscow Standard Time", "Moscow Summer Time", "MT",
     "Moscow Time"},
    {"Europe/Istanbul Turkey Asia/Istanbul", 10800, 10800, "TRT", "TRT", "Turkey Time", "Turkey Time", "TRT",
     "Turkey Time"},
    {"Asia/Dubai", 14400, 14400, "GST", "GST", "Gulf Standard Time", "Gulf Standard Time", "GT", "Gulf Time"},
    {"Asia/Kolkata Asia/Calcutta", 19800, 19800, "IST", "IST", "India Standard Time", "India Standard Time",
     "IT", "India Time"},
    {"Asia/Jakarta", 25200, 25200, "WIB", "WIB", "Western Indonesia Time", "Western Indonesia Time", "WIB",
     "West Indonesia Time"},
    {"Asia/Shanghai PRC Asia/Chongqing Asia/Harbin", 28800, 32400, "CST", "CDT", "China Standard Time",
     "China Daylight Time", "CT", "China Time"},
    {"Asia/Hong_Kong Hongkong", 28800, 32400, "HKT", "HKST", "Hong Kong Standard Time", "Hong Kong Summer Time",
     "HKT", "Hong Kong Time"},
    {"Asia/Singapore Singapore", 28800, 28800, "SGT", "SGT", "Singapore Standard Time", "Singapore Standard Time",
     "SGT", "Singapore Time"},
    {"Asia/Tokyo Japan", 32400, 36000, "JST", "JDT", "Japan Standard Time", "Japan Daylight Time", "JT",
     "Japan Time"},
    {"Asia/Seoul ROK", 32400, 36000, "KST", "KDT", "Korean Standard Time", "Korean Daylight Time", "KT",
     "Korean Time"},
    {"Asia/Jerusalem Asia/Tel_Aviv Israel", 7200, 10800, "IST", "IDT", "Israel Standard Time",
     "Israel Daylight Time", "IT", "Israel Time"},
    {"Africa/Johannesburg", 7200, 10800, "SAST", "SAST", "South Africa Standard Time",
     "South Africa Standard Time", "SAT", "South Africa Time"},
    {"Australia/Sydney Australia/Melbourne Australia/Canberra Australia/ACT Australia/NSW Australia/Victoria",
     36000, 39600, "AEST", "AEDT", "Australian Eastern Standard Time", "Australian Eastern Daylight Time", "AET",
     "Eastern Australia Time"},
};

const ZoneNames* zone_names(const std::string& zone) {
  for (const ZoneNames& z : kZoneNames) {
    std::string_view ids = z.zones;
    for (size_t b = 0; b < ids.size();) {
      size_t e = ids.find(' ', b);
      if (e == std::string_view::npos) e = ids.size();
      if (ids.substr(b, e - b) == zone) return &z;
      b = e + 1;
    }
  }
  return nullptr;
}

/// java.time's localized offset: GMT, GMT-8, GMT+5:30, GMT-7:52:58 (short), GMT-08:00 (long).
std::string localized_offset(int64_t offset, bool full) {
  if (offset == 0) return "GMT";
  const int64_t a = offset < 0 ? -offset : offset;
  auto two = [](int64_t v) { return std::string(v < 10 ? "0" : "") + std::to_string(v); };
  std::string out = std::string("GMT") + (offset < 0 ? '-' : '+');
  out += full ? two(a / 3600) : std::to_string(a / 3600);
  if (full || a % 3600) out += ":" + two(a / 60 % 60);
  if (a % 60) out += ":" + two(a % 60);
  return out;
}

[[noreturn]] void pattern_recognition(const std::string& pattern) {
  throw SparkError(ErrorKind::kRuntime, "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_PATTERN_RECOGNITION",
                   "You may get a different result due to the upgrading to Spark >= 3.0:\nFail to recognize '" +
                       pattern +
                       "' pattern in the DateTimeFormatter.\n1) You can set \"spark.sql.legacy.timeParserPolicy\" "
                       "to \"LEGACY\" to restore the behavior before Spark 3.0.\n2) You can form a valid datetime "
                       "pattern with the guide from 'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'.",
                   {{"pattern", "'" + pattern + "'"},
                    {"config", "\"spark.sql.legacy.timeParserPolicy\""},
                    {"docroot", "https://spark.apache.org/docs/latest"}},
                   "42K0B");
}

/// Checks a formatting pattern as Spark does before it builds its java.time formatter. A pattern
/// either is refused outright (the week-based letters, the letters Spark leaves out, narrow text
/// forms and years of more than ten letters) or fails in java.time (unknown letters, too many of
/// one); where the legacy SimpleDateFormat would have taken it, the error is
/// DATETIME_PATTERN_RECOGNITION (the result changed with Spark 3.0), otherwise Spark's own class
/// for the reason.
void check_format_pattern(const std::string& pattern) {
  enum Failure { kNone, kWeekBased, kIllegal, kLength, kJava };
  Failure failure = kNone;
  char letter = 0;
  bool legacy_ok = true;
  auto fail = [&](Failure f, char c) {
    if (failure == kNone) failure = f, letter = c;
  };
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      const size_t close = pattern.find('\'', i + 1);
      if (close == std::string::npos) {
        fail(kJava, c);
        legacy_ok = false;
        break;
      }
      i = close + 1;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
      if (c == '#' || c == '{' || c == '}') fail(kJava, c);
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pattern.size() && pattern[j] == c) ++j;
    const int count = static_cast<int>(j - i);
    i = j;
    // SimpleDateFormat's letters (its X takes one to three).
    if (std::string_view("GyYMLwWDdFEuaHkKhmsSzZX").find(c) == std::string_view::npos || (c == 'X' && count > 3))
      legacy_ok = false;
    if (std::string_view("YWwuec").find(c) != std::string_view::npos) {
      fail(kWeekBased, c);
      continue;
    }
    if (std::string_view("AnNpB").find(c) != std::string_view::npos) {
      fail(kIllegal, c);
      continue;
    }
    if ((count == 5 && std::string_view("GMLEQq").find(c) != std::string_view::npos) || (c == 'y' && count > 10)) {
      fail(kLength, c);
      continue;
    }
    // java.time's limits per letter.
    int most = 0;
    switch (c) {
      case 'G': case 'M': case 'L': case 'E': case 'Q': case 'q': most = 5; break;
      case 'y': most = 19; break;
      case 'd': case 'h': case 'H': case 'k': case 'K': case 'm': case 's': most = 2; break;
      case 'D': most = 3; break;
      case 'F': case 'a': most = 1; break;
      case 'S': most = 9; break;
      case 'z': most = 4; break;
      case 'Z': case 'X': case 'x': most = 5; break;
      case 'O': most = count == 1 || count == 4 ? 4 : 0; break;
      case 'V': most = count == 2 ? 2 : 0; break;
      case 'v': most = count == 1 || count == 4 ? 4 : 0; break;
      default: most = 0;
    }
    if (count > most) fail(kJava, c);
  }
  if (failure == kNone) return;
  if (legacy_ok) pattern_recognition(pattern);
  switch (failure) {
    case kWeekBased:
      throw SparkError(ErrorKind::kRuntime, "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN",
                       "You may get a different result due to the upgrading to Spark >= 3.0:\nAll week-based "
                       "patterns are unsupported since Spark 3.0, detected week-based character: " +
                           std::string(1, letter) + ".\nPlease use the SQL function EXTRACT instead.",
                       {{"c", std::string(1, letter)}}, "42K0B");
    case kIllegal:
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                       "Unrecognized datetime pattern: " + pattern +
                           ". Illegal pattern character found in datetime pattern: " + std::string(1, letter) +
                           ". Please provide legal character.",
                       {{"pattern", pattern}, {"c", std::string(1, letter)}}, "22007");
    case kLength:
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.LENGTH",
                       "Unrecognized datetime pattern: " + pattern + ". Too many letters in datetime pattern: " +
                           pattern + ". Please reduce pattern length.",
                       {{"pattern", pattern}}, "22007");
    default:
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_DATETIME_PATTERN.WITH_SUGGESTION",
                       "Unrecognized datetime pattern: '" + pattern +
                           "'. You can form a valid datetime pattern with the guide from "
                           "'https://spark.apache.org/docs/latest/sql-ref-datetime-pattern.html'.",
                       {{"pattern", "'" + pattern + "'"}, {"docroot", "https://spark.apache.org/docs/latest"}},
                       "22007");
  }
}

/// A compiled formatting pattern: runs of one letter, or literal text.
class Formatter {
 public:
  explicit Formatter(const std::string& pattern) : pattern_(pattern) {
    check_format_pattern(pattern);
    // With an era in the pattern, y is the year of the era (Spark reads y as the proleptic year
    // otherwise).
    era_ = false;
    for (size_t i = 0, quoted = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '\'') quoted ^= 1;
      else if (!quoted && pattern[i] == 'G') era_ = true;
    }
    for (size_t i = 0; i < pattern.size();) {
      char c = pattern[i];
      if (c == '\'') {
        size_t j = i + 1;
        std::string lit;
        while (j < pattern.size()) {
          if (pattern[j] == '\'') {
            if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
              lit += '\'';
              j += 2;
              continue;
            }
            break;
          }
          lit += pattern[j++];
        }
        if (j >= pattern.size() && !(i + 1 < pattern.size() && pattern[i + 1] == '\''))
          bad_pattern(pattern, "Unterminated quote.");
        if (j == i + 1) lit = "'";
        parts_.push_back({0, 0, lit});
        i = j + 1;
        continue;
      }
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        size_t j = i;
        while (j < pattern.size() && pattern[j] == c) ++j;
        int count = static_cast<int>(j - i);
        if (std::string("GyMLdDHhKkmsSaEQqXxZVzvOF").find(c) == std::string::npos)
          bad_pattern(pattern, std::string("Illegal pattern character: ") + c);
        parts_.push_back({c, count, {}});
        i = j;
        continue;
      }
      // Optional sections print their fields: every field of a timestamp is there.
      if (c != '[' && c != ']') parts_.push_back({0, 0, std::string(1, c)});
      ++i;
    }
  }

  /// `sub_micro_nanos`: fraction digits past microseconds, for TIME values.
  std::string format(int64_t utc_micros, const TimeZone& tz, int sub_micro_nanos = 0) const {
    int64_t offset = tz.offset_seconds_at_utc(floor_div(utc_micros, kMicrosPerSecond));
    int64_t local = utc_micros + offset * kMicrosPerSecond;
    int64_t days = floor_div(local, kMicrosPerDay);
    int64_t tod = floor_mod(local, kMicrosPerDay);
    CivilDate c = civil_from_days(days);
    int hour = static_cast<int>(tod / 3600000000LL),
        minute = static_cast<int>(tod / 60000000LL % 60),
        second = static_cast<int>(tod / 1000000LL % 60), micros = static_cast<int>(tod % 1000000LL);
    static const char* months[] = {"January",   "February", "March",    "April",
                                   "May",       "June",     "July",     "August",
                                   "September", "October",  "November", "December"};
    static const char* days_of_week[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                         "Friday", "Saturday", "Sunday"};
    std::string out;
    auto num = [&](int64_t v, int width) {
      std::string s = std::to_string(v < 0 ? -v : v);
      if (static_cast<int>(s.size()) < width)
        s.insert(0, static_cast<size_t>(width) - s.size(), '0');
      if (v < 0) s.insert(0, "-");
      out += s;
    };
    for (const Part& p : parts_) {
      switch (p.letter) {
        case 0:
          out += p.literal;
          break;
        case 'y': {
          const int64_t year = era_ && c.year <= 0 ? 1 - c.year : c.year;
          if (p.count == 2) {
            num(floor_mod(year, 100), 2);
          } else {
            // Four letters or more pad and sign a year wider than them.
            if (p.count >= 4 && year > 0 && static_cast<int>(std::to_string(year).size()) > p.count) out += '+';
            num(year, p.count);
          }
          break;
        }
        case 'G':
          out += c.year > 0 ? (p.count == 4 ? "Anno Domini" : "AD") : (p.count == 4 ? "Before Christ" : "BC");
          break;
        case 'F':
          num((c.day - 1) % 7 + 1, p.count);
          break;
        case 'M':
        case 'L':
          if (p.count <= 2)
            num(c.month, p.count);
          else if (p.count == 3)
            out += std::string(months[c.month - 1]).substr(0, 3);
          else
            out += months[c.month - 1];
          break;
        case 'd':
          num(c.day, p.count);
          break;
        case 'D':
          num(days - days_from_civil(c.year, 1, 1) + 1, p.count);
          break;
        case 'Q':
        case 'q': {
          static const char* kOrdinals[] = {"1st", "2nd", "3rd", "4th"};
          const int quarter = (c.month - 1) / 3 + 1;
          if (p.count == 3) out += "Q" + std::to_string(quarter);
          else if (p.count == 4) out += std::string(kOrdinals[quarter - 1]) + " quarter";
          else num(quarter, p.count);
          break;
        }
        case 'H':
          num(hour, p.count);
          break;
        case 'k':
          num(hour == 0 ? 24 : hour, p.count);
          break;
        case 'K':
          num(hour % 12, p.count);
          break;
        case 'h':
          num(hour % 12 == 0 ? 12 : hour % 12, p.count);
          break;
        case 'm':
          num(minute, p.count);
          break;
        case 's':
          num(second, p.count);
          break;
        case 'S': {
          std::string f = std::to_string(micros * 1000LL + sub_micro_nanos);
          f.insert(0, 9 - f.size(), '0');
          f.resize(static_cast<size_t>(p.count), '0');
          out += f;
          break;
        }
        case 'a':
          out += hour < 12 ? "AM" : "PM";
          break;
        case 'E': {
          std::string name = days_of_week[iso_day_of_week(days) - 1];
          out += p.count <= 3 ? name.substr(0, 3) : name;
          break;
        }
        case 'X':
        case 'x':
        case 'Z': {
          if (p.letter == 'Z' && p.count == 4) {
            out += localized_offset(offset, true);
            break;
          }
          // java.time's offset forms: +HHmm, +HHMM, +HH:MM, +HHMMss, +HH:MM:ss (lower-case parts
          // only when not zero); X and ZZZZZ print Z for UTC.
          if (offset == 0 && (p.letter == 'X' || (p.letter == 'Z' && p.count == 5))) {
            out += 'Z';
            break;
          }
          const int form = p.letter == 'Z' ? (p.count == 5 ? 5 : 2) : p.count;
          const bool colon = form == 3 || form == 5;
          const int64_t a = offset < 0 ? -offset : offset;
          out += offset < 0 ? '-' : '+';
          num(a / 3600, 2);
          if (form >= 2 || a / 60 % 60 != 0) {
            if (colon) out += ':';
            num(a / 60 % 60, 2);
            if (form >= 4 && a % 60 != 0) {
              if (colon) out += ':';
              num(a % 60, 2);
            }
          }
          break;
        }
        case 'V':
          out += tz.name();
          break;
        case 'O':
          out += localized_offset(offset, p.count == 4);
          break;
        case 'z':
        case 'v': {
          // A region's names, or for an offset (+05:30) its id; zones without English names
          // (Etc/GMT+3) show their offset.
          const ZoneNames* z = zone_names(tz.name());
          if (!z) {
            const bool offset_id = !tz.name().empty() && (tz.name()[0] == '+' || tz.name()[0] == '-');
            out += offset_id ? tz.name() : localized_offset(offset, true);
            break;
          }
          const bool daylight = z->daylight != z->standard && offset == z->daylight;
          const bool full = p.count == 4;
          if (p.letter == 'v') out += full ? z->long_generic : z->short_generic;
          else if (daylight) out += full ? z->long_dst : z->short_dst;
          else out += full ? z->long_std : z->short_std;
          break;
        }
      }
    }
    return out;
  }

 private:
  struct Part {
    char letter;
    int count;
    std::string literal;
  };
  std::string pattern_;
  std::vector<Part> parts_;
  bool era_ = false;
};

/// Compiled patterns of the previous row (patterns are almost always literals).
template <typename T>
class Cache {
 public:
  const T& get(std::string_view pattern) {
    if (!value_ || pattern != last_) {
      value_ = std::make_unique<T>(std::string(pattern));
      last_ = std::string(pattern);
    }
    return *value_;
  }

 private:
  std::string last_;
  std::unique_ptr<T> value_;
};

[[noreturn]] void cannot_parse(std::string_view s, const std::string& fn) {
  std::string try_fn = fn == "to_date"        ? "try_to_date"
                       : fn == "to_timestamp" ? "try_to_timestamp"
                                              : "try_to_timestamp";
  throw SparkError(ErrorKind::kDateTime, "CANNOT_PARSE_TIMESTAMP",
                   "Text '" + std::string(s) + "' could not be parsed. Use `" + try_fn +
                       "` to tolerate invalid input string and return NULL instead.",
                   {{"message", "Text '" + std::string(s) + "' could not be parsed"},
                    {"func", "`" + try_fn + "`"}});
}

/// The local date-time of a timestamp string, a zone in it ignored (to_timestamp_ntz without a
/// pattern); a time without a date is invalid.
bool parse_local_timestamp(std::string_view s, int64_t* us) {
  TimestampParts parts;
  return parse_timestamp_parts(s, &parts) && !parts.just_time && local_micros_of(parts, us);
}

/// The same with a pattern: the fields it reads, an offset or zone among them ignored.
bool parse_local_timestamp(const DateTimePattern& pattern, std::string_view s, int64_t* us) {
  DateTimePattern::Result r;
  if (!pattern.parse(s, &r)) return false;
  TimestampParts parts;
  parts.year = r.year;
  parts.month = r.month;
  parts.day = r.day;
  parts.hour = r.hour;
  parts.minute = r.minute;
  parts.second = r.second;
  parts.micros = r.micros;
  return local_micros_of(parts, us);
}

/// Parses row i of the string argument with the pattern argument (or Spark's default parser
/// when the call has no pattern), to a date or a timestamp.
template <bool kDate>
ColumnPtr parse_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx,
                       const std::string& fn, bool to_seconds) {
  // to_timestamp_ntz reads the local date-time and ignores a zone in the text.
  const bool ntz = sig.result_type->id() == TypeId::kTimestampNtz;
  const TimeZone& tz = TimeZone::get(ctx.time_zone);
  Cache<DateTimePattern> cache;
  bool strict = ctx.ansi && fn.rfind("try_", 0) != 0;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const TypeId in = a[0]->type()->id();
    if (in != TypeId::kString) {
      // unix_timestamp of a date or timestamp.
      int64_t us = in == TypeId::kDate
                       ? tz.local_to_utc_micros(a[0]->values<int32_t>()[i] * kMicrosPerDay)
                       : a[0]->values<int64_t>()[i];
      b.append<int64_t>(floor_div(us, kMicrosPerSecond));
      return;
    }
    std::string_view s = a[0]->string_at(i);
    bool ok;
    int32_t days = 0;
    int64_t us = 0;
    if (a.size() > 1) {
      const DateTimePattern& p = cache.get(a[1]->string_at(i));
      ok = kDate ? p.parse_date(s, &days) : ntz ? parse_local_timestamp(p, s, &us) : p.parse_timestamp(s, tz, &us);
    } else if (to_seconds) {
      ok = cache.get(kDefaultPattern).parse_timestamp(s, tz, &us);
    } else {
      ok = kDate ? parse_date(s, &days) : ntz ? parse_local_timestamp(s, &us) : parse_timestamp(s, tz, &us);
    }
    if (!ok) {
      if (strict) {
        if (a.size() == 1 && !to_seconds) {
          const std::string target = kDate ? "DATE" : ntz ? "TIMESTAMP_NTZ" : "TIMESTAMP";
          throw SparkError(
              ErrorKind::kDateTime, "CAST_INVALID_INPUT",
              "The value '" + std::string(s) + "' of the type \"STRING\" cannot be cast to \"" + target +
                  "\" because it is malformed. Correct the value as per the syntax, or change its "
                  "target type. Use `try_cast` to tolerate malformed input and return NULL "
                  "instead.",
              {{"expression", "'" + std::string(s) + "'"},
               {"sourceType", "\"STRING\""},
               {"targetType", "\"" + target + "\""},
               {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
        }
        cannot_parse(s, fn);
      }
      b.append_null();
      return;
    }
    if (to_seconds)
      b.append<int64_t>(floor_div(us, kMicrosPerSecond));
    else if (kDate)
      b.append<int32_t>(days);
    else
      b.append<int64_t>(us);
  });
}

TypeRule parse_rule(const std::string& fn, TypePtr result) {
  return [fn, result](const Types& a, const Config& conf) {
    std::string spec = "SS";
    if (fn == "unix_timestamp" || fn == "to_unix_timestamp") {
      if (a[0]->id() == TypeId::kDate)
        spec = "*S";
      else if (a[0]->id() == TypeId::kTimestamp || a[0]->id() == TypeId::kTimestampNtz)
        spec = "*S";
    }
    Signature s = coerce_args(fn, a, spec, result);
    // Without a pattern, to_date and to_timestamp are casts, which Spark declares nullable from
    // STRING (even in ANSI mode) and not from another date or time type.
    if (a.size() == 1 && (fn == "to_date" || fn == "to_timestamp" || fn == "to_timestamp_ntz")) {
      s.may_introduce_null = a[0]->id() == TypeId::kString || a[0]->id() == TypeId::kNull;
      return s;
    }
    s.may_introduce_null = !conf.ansi_enabled() || fn.rfind("try_", 0) == 0;
    return s;
  };
}

auto shown_default(size_t first_default, std::string value) {
  return [first_default, value](const std::string& called, const std::vector<std::string>& args) {
    std::string s = called + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
    if (args.size() == first_default) s += ", " + value;
    return s + ")";
  };
}

}  // namespace

void register_datetime_format(Registry& r) {
  for (std::string fn : {"to_date", "try_to_date"}) {
    r.add(scalar(fn, 1, 2, parse_rule(fn, DataType::date()),
                 [fn](const Args& a, int64_t n, const Signature& s, const EvalContext& c) {
                   return parse_kernel<true>(a, n, s, c, fn, false);
                 }));
  }
  // Spark's to_date keeps its optional format, the session time zone and the ANSI flag:
  // `to_date(s, None, Some(UTC), true)`.
  set_java_form("to_date", [](const JavaFormCall& c) {
    return c.called + "(" + c.args[0] + ", " +
           (c.args.size() > 1 ? "Some(" + c.args[1] + ")" : "None") + ", Some(" + c.time_zone +
           "), " + (c.ansi ? "true" : "false") + ")";
  });
  for (std::string fn : {"to_timestamp", "try_to_timestamp"}) {
    // to_timestamp_ltz is to_timestamp (TIMESTAMP is the local-time-zone type).
    r.add(scalar(fn, 1, 2, parse_rule(fn, DataType::timestamp()),
                 [fn](const Args& a, int64_t n, const Signature& s, const EvalContext& c) {
                   return parse_kernel<false>(a, n, s, c, fn, false);
                 },
                 fn == "to_timestamp" ? std::vector<std::string>{"to_timestamp_ltz"} : std::vector<std::string>{}));
  }
  r.add(scalar("to_timestamp_ntz", 1, 2, parse_rule("to_timestamp_ntz", DataType::timestamp_ntz()),
               [](const Args& a, int64_t n, const Signature& s, const EvalContext& c) {
                 return parse_kernel<false>(a, n, s, c, "to_timestamp_ntz", false);
               }));
  for (std::string fn : {"unix_timestamp", "to_unix_timestamp"}) {
    FunctionDef d = scalar(
        fn, fn == "unix_timestamp" ? 0 : 1, 2, parse_rule(fn, DataType::long_()),
        [fn](const Args& a, int64_t n, const Signature& s, const EvalContext& c) -> ColumnPtr {
          if (a.empty()) {
            int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
            return Column::constant(s.result_type, Value::integer(now), n);
          }
          return parse_kernel<false>(a, n, s, c, fn, true);
        });
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      if (args.empty()) return called + "(current_timestamp(), yyyy-MM-dd HH:mm:ss)";
      return called + "(" + args[0] + ", " + (args.size() > 1 ? args[1] : kDefaultPattern) + ")";
    };
    if (fn == "unix_timestamp") d.deterministic = true;
    r.add(std::move(d));
  }
  // Spark's parsers keep their default pattern, the session time zone and the ANSI flag:
  // `unix_timestamp(s, yyyy-MM-dd HH:mm:ss, Some(UTC), true)`,
  // `to_timestamp(s, None, TimestampType, Some(UTC), true)`; from_unixtime keeps the zone.
  for (const char* fn : {"unix_timestamp", "to_unix_timestamp"}) {
    set_java_form(fn, [](const JavaFormCall& c) -> std::string {
      if (c.args.empty()) return "";
      return c.called + "(" + c.args[0] + ", " + (c.args.size() > 1 ? c.args[1] : kDefaultPattern) +
             ", Some(" + c.time_zone + "), " + (c.ansi ? "true" : "false") + ")";
    });
  }
  set_java_form("to_timestamp", [](const JavaFormCall& c) {
    return c.called + "(" + c.args[0] + ", " +
           (c.args.size() > 1 ? "Some(" + c.args[1] + ")" : "None") + ", TimestampType, Some(" +
           c.time_zone + "), " + (c.ansi ? "true" : "false") + ")";
  });
  set_java_form("from_unixtime", [](const JavaFormCall& c) {
    return c.called + "(" + c.args[0] + ", " + (c.args.size() > 1 ? c.args[1] : kDefaultPattern) +
           ", Some(" + c.time_zone + "))";
  });
  // Of a date or timestamp, Spark's date_format keeps the session time zone.
  set_java_form("date_format", [zoned = java_form_zoned()](const JavaFormCall& c) -> std::string {
    return c.arg_types.size() == 2 && c.arg_types[0]->id() != TypeId::kTime ? zoned(c) : "";
  });
  r.add(scalar(
      "date_format", 2, 2,
      [](const Types& a, const Config&) {
        if (a[0]->id() == TypeId::kTime) {
          Signature s = coerce_args("date_format", {DataType::string(), a[1]}, "SS", DataType::string());
          s.arg_types[0] = a[0];
          return s;
        }
        return coerce_args("date_format", a, "tS", DataType::string());
      },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
        const TimeZone& tz = TimeZone::get(ctx.time_zone);
        bool ntz = a[0]->type()->id() == TypeId::kTimestampNtz;
        Cache<Formatter> cache;
        if (a[0]->type()->id() == TypeId::kTime) {
          // A time of day formats with time fields only; a date or zone field in the pattern
          // is an invalid parameter, as in Spark.
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            std::string_view pattern = a[1]->string_at(i);
            check_time_pattern(pattern);
            const int64_t nanos = a[0]->values<int64_t>()[i];
            b.append_bytes(cache.get(pattern).format(nanos / kNanosPerMicro, TimeZone::utc(),
                                                     static_cast<int>(nanos % kNanosPerMicro)));
          });
        }
        // A TIMESTAMP_NTZ is formatted as Spark's cast to TIMESTAMP leaves it: its local time in
        // the session zone (a time in a gap moves forward), with that zone's names and offsets.
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          const int64_t v = a[0]->values<int64_t>()[i];
          b.append_bytes(cache.get(a[1]->string_at(i)).format(ntz ? tz.local_to_utc_micros(v) : v, tz));
        });
      }));
  {
    FunctionDef d = scalar(
        "from_unixtime", 1, 2,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("from_unixtime", a, "LS", DataType::string());
          s.may_introduce_null = true;
          return s;
        },
        [](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
          const TimeZone& tz = TimeZone::get(ctx.time_zone);
          Cache<Formatter> cache;
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            const Formatter& f =
                cache.get(a.size() > 1 ? a[1]->string_at(i) : std::string_view(kDefaultPattern));
            b.append_bytes(f.format(a[0]->values<int64_t>()[i] * kMicrosPerSecond, tz));
          });
        });
    d.render = shown_default(1, kDefaultPattern);
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
