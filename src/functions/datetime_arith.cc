// Date and timestamp arithmetic: date_add/date_sub, add_months, months_between, datediff,
// next_day, make_date, make_timestamp (and its _ltz, _ntz and try_ forms), date_trunc/trunc, from_utc_timestamp/to_utc_timestamp,
// timestamp_seconds/millis/micros, current_date/current_timestamp.

#include <algorithm>
#include <chrono>
#include <cmath>

#include "common/ascii.h"
#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/cast.h"
#include "functions/decimal_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

TypeRule rule(const std::string& fn, std::string spec, TypePtr result, bool may_null = false) {
  return [fn, spec, result, may_null](const Types& a, const Config&) {
    Signature s = coerce_args(fn, a, spec, result);
    s.may_introduce_null = may_null;
    return s;
  };
}

int32_t date_at(const Args& a, size_t k, int64_t i) { return a[k]->values<int32_t>()[i]; }

[[noreturn]] void field_out_of_bounds(const std::string& field, const std::string& range,
                                      int64_t v) {
  throw SparkError(
      ErrorKind::kDateTime, "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION",
      "Invalid value for " + field + " (valid values " + range + "): " + std::to_string(v) + ". ",
      {{"rangeMessage",
        "Invalid value for " + field + " (valid values " + range + "): " + std::to_string(v)},
       {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
}

ColumnPtr months_between_kernel(const Args& a, int64_t n, const Signature& sig,
                                const EvalContext& ctx) {
  const TimeZone& tz = TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int64_t l1 = tz.utc_to_local_micros(a[0]->values<int64_t>()[i]);
    int64_t l2 = tz.utc_to_local_micros(a[1]->values<int64_t>()[i]);
    bool round = a.size() < 3 || a[2]->bool_at(i);
    int64_t d1 = floor_div(l1, kMicrosPerDay), d2 = floor_div(l2, kMicrosPerDay);
    CivilDate c1 = civil_from_days(d1), c2 = civil_from_days(d2);
    int64_t month_diff = (c1.year * 12 + c1.month) - (c2.year * 12 + c2.month);
    bool last1 = c1.day == days_in_month(c1.year, c1.month),
         last2 = c2.day == days_in_month(c2.year, c2.month);
    if (c1.day == c2.day || (last1 && last2)) {
      b.append<double>(static_cast<double>(month_diff));
      return;
    }
    // Seconds elapsed since the start of each local day (not wall-clock seconds: a day with a
    // DST change is 23 or 25 hours long), truncated as Java's toSeconds does.
    double secs1 = static_cast<double>(
        (a[0]->values<int64_t>()[i] - tz.local_to_utc_micros(d1 * kMicrosPerDay)) /
        kMicrosPerSecond);
    double secs2 = static_cast<double>(
        (a[1]->values<int64_t>()[i] - tz.local_to_utc_micros(d2 * kMicrosPerDay)) /
        kMicrosPerSecond);
    double seconds_diff = static_cast<double>(c1.day - c2.day) * 86400.0 + secs1 - secs2;
    double diff = static_cast<double>(month_diff) + seconds_diff / (31.0 * 86400.0);
    if (round) diff = std::floor(diff * 1e8 + 0.5) / 1e8;
    b.append<double>(diff);
  });
}

/// Day of week (1 = Monday) named by Spark's next_day argument, or 0.
int day_of_week_named(std::string_view s) {
  std::string u = ascii_upper(s);
  static const char* names[] = {"MONDAY", "TUESDAY",  "WEDNESDAY", "THURSDAY",
                                "FRIDAY", "SATURDAY", "SUNDAY"};
  for (int k = 0; k < 7; ++k) {
    std::string full = names[k];
    if (u == full || u == full.substr(0, 2) || u == full.substr(0, 3)) return k + 1;
  }
  return 0;
}

ColumnPtr next_day_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int dow = day_of_week_named(a[1]->string_at(i));
    if (dow == 0) {
      if (ctx.ansi)
        throw SparkError(ErrorKind::kIllegalArgument, "ILLEGAL_DAY_OF_WEEK",
                         "Illegal input for day of week: " + std::string(a[1]->string_at(i)) + ".",
                         {{"string", std::string(a[1]->string_at(i))}});
      b.append_null();
      return;
    }
    int64_t d = date_at(a, 0, i);
    int cur = iso_day_of_week(d);
    int delta = (dow - cur + 7) % 7;
    b.append<int32_t>(static_cast<int32_t>(d + (delta == 0 ? 7 : delta)));
  });
}

ColumnPtr make_date_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int64_t y = int_arg(a, 0, i), m = int_arg(a, 1, i), d = int_arg(a, 2, i);
    const char* field = nullptr;
    std::string range;
    int64_t bad = 0;
    if (y < -999999999 || y > 999999999)
      field = "Year", range = "-999999999 - 999999999", bad = y;
    else if (m < 1 || m > 12)
      field = "MonthOfYear", range = "1 - 12", bad = m;
    else if (d < 1 || d > 31)
      field = "DayOfMonth", range = "1 - 28/31", bad = d;
    if (!field && d > days_in_month(y, static_cast<int>(m))) {
      if (ctx.ansi) {
        static const char* months[] = {"JANUARY",   "FEBRUARY", "MARCH",    "APRIL",
                                       "MAY",       "JUNE",     "JULY",     "AUGUST",
                                       "SEPTEMBER", "OCTOBER",  "NOVEMBER", "DECEMBER"};
        std::string msg =
            d == 29 ? "Invalid date 'February 29' as '" + std::to_string(y) + "' is not a leap year"
                    : "Invalid date '" + std::string(months[m - 1]) + " " + std::to_string(d) + "'";
        throw SparkError(ErrorKind::kDateTime, "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION",
                         msg + ". ",
                         {{"rangeMessage", msg}, {"ansiConfig", "\"spark.sql.ansi.enabled\""}});
      }
      b.append_null();
      return;
    }
    if (field) {
      if (ctx.ansi) field_out_of_bounds(field, range, bad);
      b.append_null();
      return;
    }
    b.append<int32_t>(
        static_cast<int32_t>(days_from_civil(y, static_cast<int>(m), static_cast<int>(d))));
  });
}

/// make_timestamp(date, time[, zone]) and its variants: the date at the time of day, a local
/// date-time in the zone (the session's by default; none for TIMESTAMP_NTZ).
ColumnPtr make_timestamp_from_time(const Args& a, int64_t n, const Signature& sig,
                                   const EvalContext& ctx, bool ntz) {
  const TimeZone& session = TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const int64_t local = date_at(a, 0, i) * kMicrosPerDay + a[1]->values<int64_t>()[i] / 1000;
    if (ntz) {
      b.append<int64_t>(local);
      return;
    }
    const TimeZone* tz = &session;
    // An unknown zone is an error in the try_ forms too.
    if (a.size() > 2) tz = &TimeZone::get(std::string(a[2]->string_at(i)));
    b.append<int64_t>(tz->local_to_utc_micros(local));
  });
}

/// make_timestamp and its variants: `ntz` builds a TIMESTAMP_NTZ (no zone is applied), `try_`
/// forms return null where the plain ones raise an error (bad fields, an unknown zone).
ColumnPtr make_timestamp_kernel(const Args& a, int64_t n, const Signature& sig,
                                const EvalContext& ctx, bool ntz, bool try_form) {
  if (a.size() <= 3) return make_timestamp_from_time(a, n, sig, ctx, ntz);
  const TimeZone& session = TimeZone::get(ctx.time_zone);
  const bool raise = ctx.ansi && !try_form;
  // Spark casts the seconds to DECIMAL(16,6), whose unscaled value is the microseconds, where
  // the other fields are not null; the cast's errors are raised by the try_ forms too.
  const ColumnPtr secs = cast_after_valid(Args(a.begin(), a.begin() + 5), a[5], DataType::decimal(16, 6), ctx);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    if (secs->is_null(i)) {
      b.append_null();
      return;
    }
    int64_t y = int_arg(a, 0, i), mo = int_arg(a, 1, i), d = int_arg(a, 2, i), h = int_arg(a, 3, i),
            mi = int_arg(a, 4, i);
    const auto us = static_cast<int64_t>(secs->values<int128_t>()[i]);
    const char* field = nullptr;
    std::string range;
    int64_t bad = 0;
    if (y < -999999999 || y > 999999999)
      field = "Year", range = "-999999999 - 999999999", bad = y;
    else if (mo < 1 || mo > 12)
      field = "MonthOfYear", range = "1 - 12", bad = mo;
    else if (d < 1 || d > days_in_month(y, static_cast<int>(mo)))
      field = "DayOfMonth", range = "1 - 28/31", bad = d;
    else if (h < 0 || h > 23)
      field = "HourOfDay", range = "0 - 23", bad = h;
    else if (mi < 0 || mi > 59)
      field = "MinuteOfHour", range = "0 - 59", bad = mi;
    // 60 seconds exactly is the next minute; a fraction on top of 60 is invalid.
    else if (us < 0 || us > 60 * kMicrosPerSecond ||
             (us > 59999999 && us != 60 * kMicrosPerSecond))
      field = "SecondOfMinute", range = "0 - 59", bad = us / kMicrosPerSecond;
    if (field) {
      if (raise) field_out_of_bounds(field, range, bad);
      b.append_null();
      return;
    }
    // Java's instant-to-microseconds conversion fails past the long range in every mode, the
    // try_ forms included; years beyond it are within java.time's.
    const int64_t local_secs =
        days_from_civil(y, static_cast<int>(mo), static_cast<int>(d)) * 86400 + h * 3600 + mi * 60;
    int64_t local;
    if (__builtin_mul_overflow(local_secs, kMicrosPerSecond, &local) || __builtin_add_overflow(local, us, &local))
      throw SparkError(ErrorKind::kArithmetic, "", "long overflow");
    if (ntz) {
      b.append<int64_t>(local);
      return;
    }
    const TimeZone* tz = &session;
    if (a.size() > 6) {
      std::string name(a[6]->string_at(i));
      tz = try_form ? TimeZone::find(name) : &TimeZone::get(name);
      if (!tz) {
        b.append_null();
        return;
      }
    }
    b.append<int64_t>(tz->local_to_utc_micros(local));
  });
}

/// Truncation levels shared by date_trunc and trunc; -1 when the name is not one.
enum Level { kMicro, kMilli, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter, kYear };
int trunc_level(std::string_view s) {
  std::string u = ascii_upper(s);
  if (u == "YEAR" || u == "YYYY" || u == "YY") return kYear;
  if (u == "QUARTER") return kQuarter;
  if (u == "MONTH" || u == "MM" || u == "MON") return kMonth;
  if (u == "WEEK") return kWeek;
  if (u == "DAY" || u == "DD") return kDay;
  if (u == "HOUR") return kHour;
  if (u == "MINUTE") return kMinute;
  if (u == "SECOND") return kSecond;
  if (u == "MILLISECOND") return kMilli;
  if (u == "MICROSECOND") return kMicro;
  return -1;
}

int64_t trunc_days(int64_t days, int level) {
  CivilDate c = civil_from_days(days);
  switch (level) {
    case kWeek:
      return days - (iso_day_of_week(days) - 1);
    case kMonth:
      return days_from_civil(c.year, c.month, 1);
    case kQuarter:
      return days_from_civil(c.year, (c.month - 1) / 3 * 3 + 1, 1);
    case kYear:
      return days_from_civil(c.year, 1, 1);
    default:
      return days;
  }
}

ColumnPtr date_trunc_kernel(const Args& a, int64_t n, const Signature& sig,
                            const EvalContext& ctx) {
  const TimeZone& tz = TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int level = trunc_level(a[0]->string_at(i));
    if (level < 0) {
      b.append_null();
      return;
    }
    int64_t us = a[1]->values<int64_t>()[i];
    int64_t local = tz.utc_to_local_micros(us);
    static const int64_t units[] = {1, 1000, kMicrosPerSecond, 60 * kMicrosPerSecond,
                                    3600 * kMicrosPerSecond};
    if (level <= kHour) {
      // Seconds and their fractions are truncated on the instant; minutes and hours follow
      // local time (they differ where a zone's offset has seconds, as local mean times do).
      if (level < kMinute) {
        b.append<int64_t>(floor_div(us, units[level]) * units[level]);
      } else {
        int64_t t = floor_div(local, units[level]) * units[level];
        b.append<int64_t>(tz.local_to_utc_micros(t));
      }
      return;
    }
    int64_t days = trunc_days(floor_div(local, kMicrosPerDay), level);
    b.append<int64_t>(tz.local_to_utc_micros(days * kMicrosPerDay));
  });
}

ColumnPtr trunc_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int level = trunc_level(a[1]->string_at(i));
    if (level < kWeek) {
      b.append_null();
      return;
    }
    b.append<int32_t>(static_cast<int32_t>(trunc_days(date_at(a, 0, i), level)));
  });
}

ColumnPtr utc_shift_kernel(const Args& a, int64_t n, const Signature& sig, bool from_utc) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    // An unknown zone is an error (INVALID_TIMEZONE), as in Spark, in either ANSI mode.
    const TimeZone& tz = TimeZone::get(std::string(a[1]->string_at(i)));
    int64_t us = a[0]->values<int64_t>()[i];
    b.append<int64_t>(from_utc ? tz.utc_to_local_micros(us) : tz.local_to_utc_micros(us));
  });
}

[[noreturn]] void seconds_overflow(const std::string& value) {
  const std::string operation = "create a TIMESTAMP from " + value + " seconds since the epoch";
  throw SparkError(ErrorKind::kArithmetic, "DATETIME_OVERFLOW", "Datetime operation overflow: " + operation + ".",
                   {{"operation", operation}}, "22008");
}

ColumnPtr timestamp_from_kernel(const Args& a, int64_t n, const Signature& sig, int64_t scale) {
  const TypePtr& type = a[0]->type();
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    if (type->is_floating()) {
      // NaN and the infinities are NULL; other values saturate as Java's (long) does.
      const double v = a[0]->values<double>()[i];
      if (std::isnan(v) || std::isinf(v)) {
        b.append_null();
        return;
      }
      const double us = v * static_cast<double>(scale);
      b.append<int64_t>(us >= 9223372036854775808.0    ? INT64_MAX
                        : us <= -9223372036854775808.0 ? INT64_MIN
                                                       : static_cast<int64_t>(us));
      return;
    }
    if (type->id() == TypeId::kDecimal) {
      // The exact microseconds: DATETIME_OVERFLOW past the long range (in either ANSI mode),
      // and Java's "Rounding necessary" for a fraction of a microsecond.
      const int128_t v = a[0]->values<int128_t>()[i];
      const int s = type->scale();
      const int128_t unit = s > 6 ? pow10_i128(s - 6) : 1;
      // (Beyond 10^20 seconds, the value overflows at any scale.)
      const int128_t whole = s > 6 ? v / unit : v > pow10_i128(20) || v < -pow10_i128(20) ? v : v * pow10_i128(6 - s);
      const bool fraction = s > 6 && v % unit != 0;
      if (whole > INT64_MAX || whole < INT64_MIN || (whole == INT64_MAX && fraction && v > 0) ||
          (whole == INT64_MIN && fraction && v < 0))
        seconds_overflow(decimal_to_string(v, s) + "BD");
      if (fraction) throw SparkError(ErrorKind::kArithmetic, "", "Rounding necessary");
      b.append<int64_t>(static_cast<int64_t>(whole));
      return;
    }
    int64_t v = a[0]->values<int64_t>()[i], us;
    if (__builtin_mul_overflow(v, scale, &us)) {
      // In either ANSI mode, as Spark.
      const std::string operation = "create a TIMESTAMP from " + std::to_string(v) + "L " +
                                    (scale == 1000000LL ? "seconds" : "milliseconds") + " since the epoch";
      throw SparkError(ErrorKind::kArithmetic, "DATETIME_OVERFLOW", "Datetime operation overflow: " + operation + ".",
                       {{"operation", operation}}, "22008");
    }
    b.append<int64_t>(us);
  });
}

}  // namespace

void register_datetime_arith(Registry& r) {
  for (auto [name, sign] : {std::pair{"date_add", 1}, {"date_sub", -1}}) {
    int sg = sign;
    FunctionDef d = scalar(
        name, 2, 2, rule(name, "di", DataType::date()),
        [sg](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
            b.append<int32_t>(static_cast<int32_t>(date_at(a, 0, i) + sg * int_arg(a, 1, i)));
          });
        },
        sg > 0 ? std::vector<std::string>{"dateadd"} : std::vector<std::string>{});
    // dateadd is shown as date_add.
    d.render = [shown = std::string(name)](const std::string&, const std::vector<std::string>& a) {
      return shown + "(" + a[0] + ", " + a[1] + ")";
    };
    r.add(std::move(d));
  }
  r.add(scalar("add_months", 2, 2, rule("add_months", "dI", DataType::date()),
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                   // A date past the INT range of days overflows in either ANSI mode, as in Spark.
                   const int64_t days = add_months_to_days(date_at(a, 0, i), int_arg(a, 1, i));
                   if (days < INT32_MIN || days > INT32_MAX) throw_arithmetic_overflow("", nullptr);
                   b.append<int32_t>(static_cast<int32_t>(days));
                 });
               }));
  r.add(scalar("datediff", 2, 2, rule("datediff", "d", DataType::int_()),
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                   b.append<int32_t>(date_at(a, 0, i) - date_at(a, 1, i));
                 });
               },
               {"date_diff"}));
  {
    FunctionDef d =
        scalar("months_between", 2, 3, rule("months_between", "TTb", DataType::double_()),
               months_between_kernel);
    d.render = [](const std::string& called, const std::vector<std::string>& a) {
      return called + "(" + a[0] + ", " + a[1] + ", " + (a.size() > 2 ? a[2] : "true") + ")";
    };
    r.add(std::move(d));
  }
  r.add(scalar("next_day", 2, 2, rule("next_day", "dS", DataType::date(), true), next_day_kernel));
  r.add(scalar(
      "make_date", 3, 3,
      [](const Types& a, const Config& conf) {
        Signature s = coerce_args("make_date", a, "I", DataType::date());
        s.may_introduce_null = !conf.ansi_enabled();
        return s;
      },
      make_date_kernel));
  struct MakeTs {
    const char* name;
    bool ntz, try_form;
  };
  for (const MakeTs& m : {MakeTs{"make_timestamp", false, false}, MakeTs{"make_timestamp_ltz", false, false},
                          MakeTs{"make_timestamp_ntz", true, false}, MakeTs{"try_make_timestamp", false, true},
                          MakeTs{"try_make_timestamp_ltz", false, true},
                          MakeTs{"try_make_timestamp_ntz", true, true}}) {
    std::string fn = m.name;
    bool ntz = m.ntz, try_form = m.try_form;
    FunctionDef d = scalar(
        fn, 2, ntz ? 6 : 7,
        [fn, ntz, try_form](const Types& a, const Config& conf) {
          if (a.size() <= 3) {
            // The (date, time[, zone]) form.
            if (a.size() > 2 && ntz) {
              throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                               "The `" + fn + "` requires 2 or 6 parameters but the actual number is 3.",
                               {{"functionName", "`" + fn + "`"},
                                {"expectedNum", "2 or 6"},
                                {"actualNum", "3"}},
                               "42605");
            }
            Signature s = coerce_args(fn, a, a.size() > 2 ? "d*S" : "d*",
                                      ntz ? DataType::timestamp_ntz() : DataType::timestamp());
            const TypeId t = a[1]->id();
            if (t == TypeId::kString || t == TypeId::kNull)
              s.arg_types[1] = DataType::time();
            else if (t != TypeId::kTime)
              throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                  "The second parameter requires the \"TIME\" type, however \"" +
                                      a[1]->sql() + "\" has the type \"" + a[1]->sql() + "\".",
                                  call_sql(fn, a));
            // Spark's TIMESTAMP_NTZ form is nullable whatever its input.
            s.may_introduce_null = ntz;
            return s;
          }
          if (a.size() < 6) {
            throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                             "The `" + fn + "` requires " + (ntz ? "2 or 6" : "[2, 3, 6, 7]") +
                                 " parameters but the actual number is " + std::to_string(a.size()) + ".",
                             {{"functionName", "`" + fn + "`"},
                              {"expectedNum", ntz ? "2 or 6" : "[2, 3, 6, 7]"},
                              {"actualNum", std::to_string(a.size())}},
                             "42605");
          }
          if (!a[5]->is_numeric() && a[5]->id() != TypeId::kNull)
            throw_type_mismatch(
                "UNEXPECTED_INPUT_TYPE",
                "The 6th parameter requires the \"DECIMAL(16,6)\" type, however \"" + a[5]->sql() +
                    "\" has the type \"" + a[5]->sql() + "\".",
                call_sql(fn, a));
          // Any number is cast to the INT fields, as Spark's implicit casts do.
          Types t = a;
          for (size_t k = 0; k < 5; ++k)
            if (t[k]->is_numeric()) t[k] = DataType::int_();
          Signature s = coerce_args(fn, t, "IIIII*S", ntz ? DataType::timestamp_ntz() : DataType::timestamp());
          if (a[5]->id() == TypeId::kNull) s.arg_types[5] = DataType::double_();
          // Spark casts the seconds to DECIMAL(16,6); a cast that may fail makes the result
          // nullable even in ANSI mode.
          s.may_introduce_null =
              try_form || !conf.ansi_enabled() || cast_forces_null(*a[5], *DataType::decimal(16, 6));
          return s;
        },
        [ntz, try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
          return make_timestamp_kernel(a, n, sig, ctx, ntz, try_form);
        });
    // Spark's names: try_make_timestamp leaves its time zone out; of the (date, time) forms,
    // make_timestamp_ltz is named make_timestamp and try_make_timestamp_ntz wraps the
    // make_timestamp_ntz it runs.
    d.render = [fn](const std::string& called, const std::vector<std::string>& a) {
      auto join = [&](const std::string& name, size_t count) {
        std::string s = name + "(";
        for (size_t i = 0; i < count; ++i) s += (i ? ", " : "") + a[i];
        return s + ")";
      };
      if (a.size() <= 3) {
        if (fn == "make_timestamp_ltz") return join("make_timestamp", a.size());
        if (fn == "try_make_timestamp_ntz") return called + "(" + join("make_timestamp_ntz", a.size()) + ")";
        return join(called, a.size());
      }
      return join(called, fn == "try_make_timestamp" ? std::min<size_t>(6, a.size()) : a.size());
    };
    r.add(std::move(d));
  }
  r.add(scalar("date_trunc", 2, 2, rule("date_trunc", "ST", DataType::timestamp(), true),
               date_trunc_kernel));
  r.add(scalar("trunc", 2, 2, rule("trunc", "dS", DataType::date(), true), trunc_kernel));
  r.add(scalar("from_utc_timestamp", 2, 2, rule("from_utc_timestamp", "TS", DataType::timestamp()),
               [](const Args& a, int64_t n, const Signature& s, const EvalContext&) {
                 return utc_shift_kernel(a, n, s, true);
               }));
  r.add(scalar("to_utc_timestamp", 2, 2, rule("to_utc_timestamp", "TS", DataType::timestamp()),
               [](const Args& a, int64_t n, const Signature& s, const EvalContext&) {
                 return utc_shift_kernel(a, n, s, false);
               }));
  for (auto [name, scale] : {std::pair{"timestamp_seconds", 1000000LL},
                             {"timestamp_millis", 1000LL},
                             {"timestamp_micros", 1LL}}) {
    int64_t sc = scale;
    std::string fn = name;
    r.add(scalar(
        fn, 1, 1,
        [fn, sc](const Types& a, const Config&) {
          // timestamp_seconds takes a decimal as it is (its exact value) and other fractional
          // numbers as DOUBLE.
          if (sc == 1000000LL && a[0]->id() == TypeId::kDecimal) {
            Signature s;
            s.arg_types = a;
            s.result_type = DataType::timestamp();
            return s;
          }
          bool floating = sc == 1000000LL && a[0]->is_floating();
          Signature s = coerce_args(fn, a, floating ? "D" : "L", DataType::timestamp());
          s.may_introduce_null = floating;  // NaN and the infinities
          return s;
        },
        [sc](const Args& a, int64_t n, const Signature& s, const EvalContext&) {
          return timestamp_from_kernel(a, n, s, sc);
        }));
  }
  // The query's instant as a date in the session time zone, as a TIMESTAMP (UTC microseconds)
  // or as the session zone's local date-time (TIMESTAMP_NTZ).
  enum class Now { kDate, kTimestamp, kLocalTimestamp };
  auto nullary = [&](const std::string& name, TypePtr t, Now what, std::vector<std::string> aliases = {}) {
    FunctionDef d = scalar(
        name, 0, 0,
        [t](const Types&, const Config&) {
          Signature s;
          s.result_type = t;
          s.never_null = true;
          return s;
        },
        [what](const Args&, int64_t n, const Signature& sig, const EvalContext& ctx) {
          int64_t now = ctx.now();
          if (what == Now::kTimestamp) return Column::constant(sig.result_type, Value::integer(now), n);
          int64_t local = TimeZone::get(ctx.time_zone).utc_to_local_micros(now);
          return Column::constant(
              sig.result_type, Value::integer(what == Now::kDate ? floor_div(local, kMicrosPerDay) : local), n);
        },
        std::move(aliases));
    // Spark shows a call by an alias (curdate()) under the function's own name.
    if (!d.aliases.empty())
      d.render = [name](const std::string&, const std::vector<std::string>&) { return name + "()"; };
    d.deterministic = false;
    r.add(std::move(d));
  };
  nullary("current_date", DataType::date(), Now::kDate, {"curdate"});
  nullary("current_timestamp", DataType::timestamp(), Now::kTimestamp);
  nullary("now", DataType::timestamp(), Now::kTimestamp);
  nullary("localtimestamp", DataType::timestamp_ntz(), Now::kLocalTimestamp);
}

}  // namespace ember::functions
