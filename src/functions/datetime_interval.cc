// Interval constructors and unit-based timestamp arithmetic: make_dt_interval,
// make_ym_interval, timestampadd and timestampdiff (PySpark's timestamp_add / timestamp_diff),
// convert_timezone and current_timezone.
//
// Day-time intervals are int64 microseconds and year-month intervals int32 months (see
// types/data_type.h). Unit arithmetic follows java.time as Spark uses it: timestampadd moves
// the local date-time of the session zone for units of a day and more (keeping the wall clock
// across daylight saving changes) and the instant for smaller units; timestampdiff counts
// every unit between local date-times.

#include <array>
#include <cmath>

#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/cast.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

[[noreturn]] void interval_overflow() {
  throw SparkError(ErrorKind::kArithmetic, "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION",
                   "Integer overflow while operating with intervals. Try devising appropriate values for the "
                   "interval parameters.",
                   {});
}

/// The arguments of a constructor whose missing trailing arguments Spark fills in and shows
/// (`make_dt_interval(1)` is named `make_dt_interval(1, 0, 0, 0.000000)`).
auto with_defaults(std::vector<std::string> defaults) {
  return [defaults](const std::string& called, const std::vector<std::string>& args) {
    std::string s = called + "(";
    for (size_t i = 0; i < defaults.size(); ++i)
      s += (i ? ", " : "") + (i < args.size() ? args[i] : defaults[i]);
    return s + ")";
  };
}

/// Spark casts any number to an INT parameter (overflow is a CAST_OVERFLOW error in ANSI
/// mode): the first `count` argument types, with numbers shown as INT for coerce_args.
Types numbers_as_int(Types a, size_t count) {
  for (size_t k = 0; k < count && k < a.size(); ++k)
    if (a[k]->is_numeric()) a[k] = DataType::int_();
  return a;
}

/// A constant zero column standing for an argument the call left out.
ColumnPtr zero_of(const TypePtr& t, int64_t n) {
  return Column::constant(t, t->id() == TypeId::kDecimal ? Value::decimal(0) : Value::integer(0), n);
}

ColumnPtr make_dt_interval_kernel(const Args& given, int64_t n, const Signature& sig, const EvalContext& ctx) {
  Args a = given;
  for (size_t k = a.size(); k < 4; ++k) a.push_back(zero_of(k < 3 ? DataType::int_() : DataType::decimal(18, 6), n));
  // Spark casts the seconds only where the other fields are not null.
  a[3] = cast_after_valid(Args(a.begin(), a.begin() + 3), a[3], DataType::decimal(18, 6), ctx);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int64_t days = int_arg(a, 0, i), hours = int_arg(a, 1, i), mins = int_arg(a, 2, i);
    auto secs = static_cast<int64_t>(a[3]->values<int128_t>()[i]);  // DECIMAL(18,6): micros
    int64_t us = 0, t = 0;
    if (__builtin_mul_overflow(days, kMicrosPerDay, &us) ||
        __builtin_mul_overflow(hours, 3600 * kMicrosPerSecond, &t) || __builtin_add_overflow(us, t, &us) ||
        __builtin_mul_overflow(mins, 60 * kMicrosPerSecond, &t) || __builtin_add_overflow(us, t, &us) ||
        __builtin_add_overflow(us, secs, &us))
      interval_overflow();
    b.append<int64_t>(us);
  });
}

ColumnPtr make_ym_interval_kernel(const Args& given, int64_t n, const Signature& sig, const EvalContext&) {
  Args a = given;
  for (size_t k = a.size(); k < 2; ++k) a.push_back(zero_of(DataType::int_(), n));
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    int32_t months = 0;
    if (__builtin_mul_overflow(int_arg(a, 0, i), 12, &months) ||
        __builtin_add_overflow(months, int_arg(a, 1, i), &months))
      interval_overflow();
    b.append<int32_t>(months);
  });
}

// ---- timestampadd / timestampdiff -----------------------------------------------------------

enum class Unit { kMicrosecond, kMillisecond, kSecond, kMinute, kHour, kDay, kDayOfYear, kWeek, kMonth, kQuarter, kYear };

constexpr std::array<std::pair<const char*, Unit>, 11> kUnits = {{
    {"MICROSECOND", Unit::kMicrosecond}, {"MILLISECOND", Unit::kMillisecond}, {"SECOND", Unit::kSecond},
    {"MINUTE", Unit::kMinute},           {"HOUR", Unit::kHour},               {"DAY", Unit::kDay},
    {"DAYOFYEAR", Unit::kDayOfYear},     {"WEEK", Unit::kWeek},               {"MONTH", Unit::kMonth},
    {"QUARTER", Unit::kQuarter},         {"YEAR", Unit::kYear}}};

/// The unit named by `s` (any case); raises INVALID_PARAMETER_VALUE.DATETIME_UNIT otherwise.
/// timestampdiff does not accept DAYOFYEAR.
Unit parse_unit(std::string_view s, const char* fn, bool allow_day_of_year) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (auto& [name, unit] : kUnits)
    if (u == name && (allow_day_of_year || unit != Unit::kDayOfYear)) return unit;
  std::string msg = "expects one of the units without quotes YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, "
                    "MINUTE, SECOND, MILLISECOND, MICROSECOND, but got the string literal '" +
                    std::string(s) + "'";
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.DATETIME_UNIT",
                   "The value of parameter(s) `unit` in `" + std::string(fn) + "` is invalid: " + msg + ".",
                   {{"parameter", "`unit`"}, {"functionName", "`" + std::string(fn) + "`"}, {"invalidValue", msg}});
}

int64_t unit_micros(Unit u) {
  switch (u) {
    case Unit::kMicrosecond: return 1;
    case Unit::kMillisecond: return 1000;
    case Unit::kSecond: return kMicrosPerSecond;
    case Unit::kMinute: return 60 * kMicrosPerSecond;
    default: return 3600 * kMicrosPerSecond;
  }
}

bool is_time_unit(Unit u) { return u <= Unit::kHour; }

/// Local micros → UTC micros in `tz`, keeping `preferred_offset` (seconds) when it is one of
/// the valid offsets of that local time, as java.time's ZonedDateTime does when it moves the
/// local date-time of a zoned value.
int64_t resolve_local(const TimeZone& tz, int64_t local, int64_t preferred_offset) {
  int64_t utc = local - preferred_offset * kMicrosPerSecond;
  if (tz.offset_seconds_at_utc(floor_div(utc, kMicrosPerSecond)) == preferred_offset) return utc;
  return tz.local_to_utc_micros(local);
}

/// Adds `months` and `days` to the local date-time of `local` micros (days of the month
/// clamped, as plusMonths does). False when the result leaves the supported range.
bool add_local(int64_t local, int64_t months, int64_t days, int64_t* out) {
  int64_t day = floor_div(local, kMicrosPerDay), tod = floor_mod(local, kMicrosPerDay);
  if (months) {
    CivilDate c = civil_from_days(day);
    int64_t m = c.year * 12 + (c.month - 1);
    if (__builtin_add_overflow(m, months, &m)) return false;
    int64_t y = floor_div(m, 12);
    int mo = static_cast<int>(floor_mod(m, 12)) + 1;
    if (y > 1000000000 || y < -1000000000) return false;
    day = days_from_civil(y, mo, std::min(c.day, days_in_month(y, mo)));
  }
  if (__builtin_add_overflow(day, days, &day)) return false;
  // java.time's LocalDate covers years ±999,999,999.
  if (day > 365242500000LL || day < -365243500000LL) return false;
  return !__builtin_mul_overflow(day, kMicrosPerDay, out) && !__builtin_add_overflow(*out, tod, out);
}

/// A timestamp as Spark's literal syntax shows it in error messages.
std::string ts_literal(int64_t us, bool ntz, const TimeZone& tz) {
  int64_t local = ntz ? us : tz.utc_to_local_micros(us);
  CivilDate c = civil_from_days(floor_div(local, kMicrosPerDay));
  int64_t tod = floor_mod(local, kMicrosPerDay);
  char buf[80];
  std::snprintf(buf, sizeof(buf), "%04lld-%02d-%02d %02lld:%02lld:%02lld", static_cast<long long>(c.year), c.month,
                c.day, static_cast<long long>(tod / 3600000000LL), static_cast<long long>(tod / 60000000 % 60),
                static_cast<long long>(tod / 1000000 % 60));
  std::string s = buf;
  if (int64_t frac = tod % 1000000) {
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(frac));
    s += buf;
    while (s.back() == '0') s.pop_back();
  }
  return std::string(ntz ? "TIMESTAMP_NTZ '" : "TIMESTAMP '") + s + "'";
}

ColumnPtr timestampadd_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const bool ntz = sig.result_type->id() == TypeId::kTimestampNtz;
  const TimeZone& tz = ntz ? TimeZone::utc() : TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view unit_name = a[0]->string_at(i);
    Unit unit = parse_unit(unit_name, "TIMESTAMPADD", true);
    int64_t q = long_arg(a, 1, i), ts = long_arg(a, 2, i);
    int64_t out = 0;
    bool ok;
    if (is_time_unit(unit)) {
      int64_t d = 0;
      ok = !__builtin_mul_overflow(q, unit_micros(unit), &d) && !__builtin_add_overflow(ts, d, &out);
    } else {
      int64_t months = 0, days = 0;
      switch (unit) {
        case Unit::kWeek: ok = !__builtin_mul_overflow(q, 7, &days); break;
        case Unit::kMonth: months = q, ok = true; break;
        case Unit::kQuarter: ok = !__builtin_mul_overflow(q, 3, &months); break;
        case Unit::kYear: ok = !__builtin_mul_overflow(q, 12, &months); break;
        default: days = q, ok = true; break;
      }
      // java.time takes the amounts as ints here.
      ok = ok && months == static_cast<int32_t>(months) && days == static_cast<int32_t>(days);
      int64_t offset = tz.offset_seconds_at_utc(floor_div(ts, kMicrosPerSecond));
      int64_t local = 0;
      ok = ok && !__builtin_add_overflow(ts, offset * kMicrosPerSecond, &local) &&
           add_local(local, months, days, &local);
      if (ok) out = resolve_local(tz, local, offset);
    }
    if (!ok) {
      std::string msg = "add " + std::to_string(q) + "L " + std::string(unit_name) + " to " + ts_literal(ts, ntz, tz);
      throw SparkError(ErrorKind::kArithmetic, "DATETIME_OVERFLOW", "Datetime operation overflow: " + msg + ".",
                       {{"operation", msg}});
    }
    b.append<int64_t>(out);
  });
}

/// java.time's LocalDate.until in months: whole months, counting a month only once the day of
/// the month is reached.
int64_t months_until(int64_t from_day, int64_t to_day) {
  CivilDate f = civil_from_days(from_day), t = civil_from_days(to_day);
  int64_t p1 = (f.year * 12 + f.month - 1) * 32 + f.day, p2 = (t.year * 12 + t.month - 1) * 32 + t.day;
  return (p2 - p1) / 32;
}

ColumnPtr timestampdiff_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const bool ntz = a[1]->type()->id() == TypeId::kTimestampNtz;
  const TimeZone& tz = ntz ? TimeZone::utc() : TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    Unit unit = parse_unit(a[0]->string_at(i), "TIMESTAMPDIFF", false);
    // Every unit compares the local date-times of the session zone (across a daylight saving
    // change a local day may have 23 or 25 hours).
    int64_t ls = tz.utc_to_local_micros(long_arg(a, 1, i)), le = tz.utc_to_local_micros(long_arg(a, 2, i));
    if (is_time_unit(unit)) {
      // Truncated toward zero; 128 bits as the span may pass 2^63.
      auto d = static_cast<__int128>(le) - ls;
      b.append<int64_t>(static_cast<int64_t>(d / unit_micros(unit)));
      return;
    }
    // Date units: the end date counts as one day less (more) while its time of day has not
    // reached the start's.
    int64_t sd = floor_div(ls, kMicrosPerDay), ed = floor_div(le, kMicrosPerDay);
    int64_t st = floor_mod(ls, kMicrosPerDay), et = floor_mod(le, kMicrosPerDay);
    if (ed > sd && et < st) --ed;
    else if (ed < sd && et > st) ++ed;
    int64_t r = 0;
    switch (unit) {
      case Unit::kDay: r = ed - sd; break;
      case Unit::kWeek: r = (ed - sd) / 7; break;
      case Unit::kMonth: r = months_until(sd, ed); break;
      case Unit::kQuarter: r = months_until(sd, ed) / 3; break;
      default: r = months_until(sd, ed) / 12; break;
    }
    b.append<int64_t>(r);
  });
}

/// Casts for a timestamp argument of timestampadd / timestampdiff: dates become TIMESTAMP,
/// strings TIMESTAMP, TIMESTAMP_NTZ stays.
TypePtr timestamp_arg(const TypePtr& t) {
  return t->id() == TypeId::kTimestampNtz ? t : DataType::timestamp();
}

bool timestamp_like(const TypePtr& t) {
  return t->is_datetime() || t->id() == TypeId::kString || t->id() == TypeId::kNull;
}

/// The DATATYPE_MISMATCH error for argument k of `a` that is not a timestamp.
[[noreturn]] void requires_timestamp(const std::string& fn, const Types& a, size_t k, const char* ordinal) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal + " parameter requires the \"TIMESTAMP\" type, however \"" +
                          a[k]->sql() + "\" has the type \"" + a[k]->sql() + "\".",
                      call_sql(fn, a));
}

// ---- convert_timezone -----------------------------------------------------------------------

ColumnPtr convert_timezone_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const bool has_source = a.size() == 3;
  const TimeZone& session = TimeZone::get(ctx.time_zone);
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const TimeZone& from = has_source ? TimeZone::get(std::string(a[0]->string_at(i))) : session;
    const TimeZone& to = TimeZone::get(std::string(a[has_source ? 1 : 0]->string_at(i)));
    int64_t local = long_arg(a, has_source ? 2 : 1, i);
    b.append<int64_t>(to.utc_to_local_micros(from.local_to_utc_micros(local)));
  });
}

}  // namespace

void register_datetime_interval(Registry& r) {
  {
    FunctionDef d = scalar(
        "make_dt_interval", 0, 4,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("make_dt_interval", numbers_as_int(a, 3), "III*", DataType::day_time_interval(0, 3));
          if (a.size() > 3) {
            if (!a[3]->is_numeric() && a[3]->id() != TypeId::kNull && a[3]->id() != TypeId::kString)
              throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                  "The 4th parameter requires the \"DECIMAL(18,6)\" type, however \"" +
                                      a[3]->sql() + "\" has the type \"" + a[3]->sql() + "\".",
                                  call_sql("make_dt_interval", a));
            // The kernel casts the seconds to DECIMAL(18,6) where Spark would.
            if (a[3]->id() == TypeId::kNull) s.arg_types[3] = DataType::decimal(18, 6);
            s.may_introduce_null = cast_forces_null(*s.arg_types[3], *DataType::decimal(18, 6));
          }
          return s;
        },
        make_dt_interval_kernel);
    d.render = with_defaults({"0", "0", "0", "0.000000"});
    d.may_throw = true;
    d.usage = "make_dt_interval([days[, hours[, mins[, secs]]]]) - Make DayTimeIntervalType duration from days, "
              "hours, mins and secs.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "make_ym_interval", 0, 2,
        [](const Types& a, const Config&) {
          return coerce_args("make_ym_interval", numbers_as_int(a, 2), "I", DataType::year_month_interval(0, 1));
        },
        make_ym_interval_kernel);
    d.render = with_defaults({"0", "0"});
    d.may_throw = true;
    d.usage = "make_ym_interval([years[, months]]) - Make year-month interval from years, months.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "timestampadd", 3, 3,
        [](const Types& a, const Config&) {
          if (!timestamp_like(a[2])) requires_timestamp("timestampadd", a, 2, "third");
          // The quantity is a BIGINT; other numbers are cast to it (1.7 is 1).
          Types t = a;
          if (t[1]->is_numeric()) t[1] = DataType::long_();
          Signature s = coerce_args("timestampadd", t, "SL*", timestamp_arg(a[2]));
          s.arg_types[1] = DataType::long_();
          s.arg_types[2] = timestamp_arg(a[2]);
          return s;
        },
        timestampadd_kernel);
    d.may_throw = true;
    d.render = [](const std::string&, const std::vector<std::string>& args) {
      return "timestampadd(" + args[0] + ", " + args[1] + ", " + args[2] + ")";
    };
    d.unlisted = true;  // SQL syntax in Spark, not a listed function
    d.usage = "timestampadd(unit, quantity, timestamp) - Adds the specified number of units to the given timestamp.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "timestampdiff", 3, 3,
        [](const Types& a, const Config&) {
          if (!timestamp_like(a[1])) requires_timestamp("timestampdiff", {a[1], a[2]}, 0, "first");
          if (!timestamp_like(a[2])) requires_timestamp("timestampdiff", {a[1], a[2]}, 1, "second");
          // Both ends take one type: TIMESTAMP_NTZ only when both are (or a date beside one).
          bool ntz = (a[1]->id() == TypeId::kTimestampNtz || a[2]->id() == TypeId::kTimestampNtz) &&
                     a[1]->id() != TypeId::kTimestamp && a[2]->id() != TypeId::kTimestamp &&
                     a[1]->id() != TypeId::kString && a[2]->id() != TypeId::kString;
          TypePtr t = ntz ? DataType::timestamp_ntz() : DataType::timestamp();
          Signature s = coerce_args("timestampdiff", a, "S**", DataType::long_());
          s.arg_types[1] = s.arg_types[2] = t;
          return s;
        },
        timestampdiff_kernel);
    d.may_throw = true;
    d.render = [](const std::string&, const std::vector<std::string>& args) {
      return "timestampdiff(" + args[0] + ", " + args[1] + ", " + args[2] + ")";
    };
    d.unlisted = true;  // SQL syntax in Spark, not a listed function
    d.usage = "timestampdiff(unit, start, end) - Gets the difference between the timestamps in the specified units.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "convert_timezone", 2, 3,
        [](const Types& a, const Config&) {
          Signature s = coerce_args("convert_timezone", a, a.size() == 3 ? "SS*" : "S*", DataType::timestamp_ntz());
          s.arg_types.back() = DataType::timestamp_ntz();
          return s;
        },
        convert_timezone_kernel);
    d.may_throw = true;
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      std::string s = called + "(" + (args.size() == 2 ? "current_timezone(), " : "");
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
      return s + ")";
    };
    d.usage = "convert_timezone([sourceTz, ]targetTz, sourceTs) - Converts the timestamp without time zone "
              "sourceTs from the sourceTz time zone to targetTz.";
    r.add(std::move(d));
  }
  {
    FunctionDef d = scalar(
        "current_timezone", 0, 0,
        [](const Types&, const Config&) {
          Signature s;
          s.result_type = DataType::string();
          s.never_null = true;
          return s;
        },
        [](const Args&, int64_t n, const Signature& sig, const EvalContext& ctx) {
          return Column::constant(sig.result_type, Value::bytes(ctx.time_zone), n);
        });
    d.usage = "current_timezone() - Returns the current session local timezone.";
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
