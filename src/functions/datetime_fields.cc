// Fields of dates and timestamps: year, quarter, month, day, dayofweek, weekday, dayofyear,
// weekofyear, hour, minute, second, last_day, and the epoch conversions unix_date,
// unix_seconds/millis/micros. Timestamps are read in the session time zone; TIMESTAMP_NTZ as
// they are.

#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/collection_util.h"
#include "functions/java_form.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

TypeRule rule(const std::string& fn, std::string spec, TypePtr result) {
  return [fn, spec, result](const Types& a, const Config&) {
    return coerce_args(fn, a, spec, result);
  };
}

/// ISO-8601 week number of a date (weeks start on Monday; week 1 has the year's first Thursday).
int iso_week(int64_t days) {
  int dow = iso_day_of_week(days);    // 1..7
  int64_t thursday = days - dow + 4;  // the Thursday of this week decides the year
  CivilDate c = civil_from_days(thursday);
  int64_t jan1 = days_from_civil(c.year, 1, 1);
  return static_cast<int>((thursday - jan1) / 7 + 1);
}

template <typename F>
ScalarKernel date_field(F f) {
  return [f](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      int64_t days = a[0]->values<int32_t>()[i];
      b.append<int32_t>(static_cast<int32_t>(f(days)));
    });
  };
}

/// Microseconds since local midnight of each timestamp (session zone; NTZ as is) or TIME.
template <typename F>
ScalarKernel time_field(F f) {
  return [f](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
    const TimeZone& tz = TimeZone::get(ctx.time_zone);
    bool ntz = a[0]->type()->id() == TypeId::kTimestampNtz;
    if (a[0]->type()->id() == TypeId::kTime) {
      return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
        b.append<int32_t>(static_cast<int32_t>(f(a[0]->values<int64_t>()[i] / kNanosPerMicro)));
      });
    }
    return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
      int64_t us = a[0]->values<int64_t>()[i];
      int64_t local = ntz ? us : tz.utc_to_local_micros(us);
      b.append<int32_t>(static_cast<int32_t>(f(floor_mod(local, kMicrosPerDay))));
    });
  };
}

}  // namespace

void register_datetime_fields(Registry& r) {
  auto field = [&](const std::string& name, ScalarKernel k, std::vector<std::string> aliases = {}) {
    r.add(scalar(name, 1, 1, rule(name, "d", DataType::int_()), std::move(k), std::move(aliases)));
  };
  field("year", date_field([](int64_t d) { return civil_from_days(d).year; }));
  field("quarter", date_field([](int64_t d) { return (civil_from_days(d).month - 1) / 3 + 1; }));
  field("month", date_field([](int64_t d) { return civil_from_days(d).month; }));
  field("day", date_field([](int64_t d) { return civil_from_days(d).day; }));
  field("dayofmonth", date_field([](int64_t d) { return civil_from_days(d).day; }));
  field("dayofweek", date_field([](int64_t d) { return iso_day_of_week(d) % 7 + 1; }));
  field("weekday", date_field([](int64_t d) { return iso_day_of_week(d) - 1; }));
  field("dayofyear", date_field([](int64_t d) {
          return d - days_from_civil(civil_from_days(d).year, 1, 1) + 1;
        }));
  field("weekofyear", date_field(iso_week));
  auto tfield = [&](const std::string& name, ScalarKernel k) {
    r.add(scalar(
        name, 1, 1,
        [name](const Types& a, const Config& conf) {
          if (a[0]->id() == TypeId::kTime) {
            Signature s;
            s.arg_types = {a[0]};
            s.result_type = DataType::int_();
            return s;
          }
          return coerce_args(name, a, "t", DataType::int_());
        },
        std::move(k)));
  };
  tfield("hour", time_field([](int64_t us) { return us / 3600000000LL; }));
  tfield("minute", time_field([](int64_t us) { return us / 60000000LL % 60; }));
  tfield("second", time_field([](int64_t us) { return us / 1000000LL % 60; }));
  // Of a timestamp, Spark's expressions keep the session time zone: `hour(ts, Some(UTC))`.
  for (const char* name : {"hour", "minute", "second"}) {
    set_java_form(name, [zoned = java_form_zoned()](const JavaFormCall& c) -> std::string {
      return c.arg_types.size() == 1 && c.arg_types[0]->id() != TypeId::kTime ? zoned(c) : "";
    });
  }
  r.add(scalar("last_day", 1, 1, rule("last_day", "d", DataType::date()),
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                   CivilDate c = civil_from_days(a[0]->values<int32_t>()[i]);
                   b.append<int32_t>(static_cast<int32_t>(
                       days_from_civil(c.year, c.month, days_in_month(c.year, c.month))));
                 });
               }));
  for (bool day : {true, false}) {
    std::string fn = day ? "dayname" : "monthname";
    r.add(scalar(fn, 1, 1, rule(fn, "d", DataType::string()),
                 [day](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   static const char* days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
                   static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
                   return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                     int64_t d = a[0]->values<int32_t>()[i];
                     b.append_bytes(day ? days[iso_day_of_week(d) - 1]
                                        : months[civil_from_days(d).month - 1]);
                   });
                 }));
  }
  r.add(scalar("date_from_unix_date", 1, 1, rule("date_from_unix_date", "I", DataType::date()),
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                   b.append<int32_t>(int_arg(a, 0, i));
                 });
               }));
  // unix_date takes a DATE only: Spark casts nothing to it, not even timestamps.
  TypeRule date_only = [](const Types& a, const Config& conf) {
    if (a[0]->id() != TypeId::kDate && a[0]->id() != TypeId::kNull)
      throw_unexpected_input("unix_date", a, 0, "\"DATE\"");
    return rule("unix_date", "d", DataType::int_())(a, conf);
  };
  r.add(scalar("unix_date", 1, 1, date_only,
               date_field([](int64_t d) { return d; })));
  for (auto [name, div] :
       {std::pair{"unix_seconds", 1000000LL}, {"unix_millis", 1000LL}, {"unix_micros", 1LL}}) {
    int64_t dv = div;
    r.add(scalar(name, 1, 1, rule(name, "t", DataType::long_()),
                 [dv](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
                     b.append<int64_t>(floor_div(a[0]->values<int64_t>()[i], dv));
                   });
                 }));
  }
}

}  // namespace ember::functions
