// Datetime patterns: to_date, to_timestamp (to_timestamp_ltz), to_timestamp_ntz,
// unix_timestamp/to_unix_timestamp (parsing with common/datetime_pattern), date_format and from_unixtime (formatting with the pattern letters
// of Spark's DateTimeFormatter use).

#include <chrono>

#include "common/datetime.h"
#include "common/datetime_pattern.h"
#include "common/timezone.h"
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

/// A compiled formatting pattern: runs of one letter, or literal text.
class Formatter {
 public:
  explicit Formatter(const std::string& pattern) : pattern_(pattern) {
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
        if (std::string("yMLdDHhKkmsSaEQqXxZVzu").find(c) == std::string::npos)
          bad_pattern(pattern, std::string("Illegal pattern character: ") + c);
        parts_.push_back({c, count, {}});
        i = j;
        continue;
      }
      parts_.push_back({0, 0, std::string(1, c)});
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
        case 'y':
        case 'u':
          if (p.count == 2)
            num(floor_mod(c.year, 100), 2);
          else {
            if (c.year > 9999 && p.count >= 4) out += '+';
            num(c.year, p.count);
          }
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
        case 'q':
          num((c.month - 1) / 3 + 1, p.count);
          break;
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
          if (offset == 0 && p.letter == 'X') {
            out += 'Z';
            break;
          }
          int64_t a = offset < 0 ? -offset : offset;
          out += offset < 0 ? '-' : '+';
          num(a / 3600, 2);
          bool colon = (p.letter != 'Z' && (p.count == 3 || p.count == 5)) ||
                       (p.letter == 'Z' && p.count == 5);
          if (p.count > 1 || a % 3600) {
            if (colon) out += ':';
            num(a / 60 % 60, 2);
          }
          break;
        }
        case 'V':
        case 'z':
          out += tz.name();
          break;
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
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          b.append_bytes(cache.get(a[1]->string_at(i))
                             .format(a[0]->values<int64_t>()[i], ntz ? TimeZone::utc() : tz));
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
