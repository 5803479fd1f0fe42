// What `+` and `-` do on dates, timestamps and ANSI intervals. The analyzer rewrites an operator
// whose operands are datetimes or intervals (plan/datetime_arithmetic.cc) into date_add/date_sub
// or into one of the internal functions here; they are not callable by name from SQL and are
// not listed by SHOW FUNCTIONS. Each is shown as Spark shows the expression it stands for.
//
//   extractansiintervaldays(i)   days of a day-time interval (date + INTERVAL 'n' DAY)
//   ts ± day-time interval       microseconds added to the local date-time (session time zone)
//   date ± year-month interval   add_months' rule (the day clamped to the month's end)
//   ts ± year-month interval     months added to the local date-time in the session time zone
//   interval ± interval          same kind: fields widened, overflow an error
//   date - date                  INTERVAL DAY; ts - ts: INTERVAL DAY TO SECOND
//   time ± day-time interval     a time of the same day (DATETIME_OVERFLOW past it); the
//                                result keeps the time's precision, at least 6 when the
//                                interval has seconds
//   time - time                  INTERVAL HOUR TO SECOND

#include <algorithm>

#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/kernel_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

/// Fixed-width binary kernel with null propagation and a per-row function that may throw.
template <typename A, typename B, typename R, typename F>
ColumnPtr binary_rows(const Args& a, int64_t n, const TypePtr& rt, F&& f) {
  BufferPtr validity = and_validity({a[0].get(), a[1].get()}, n);
  auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(R));
  const A* x = a[0]->values<A>();
  const B* y = a[1]->values<B>();
  R* out = data->mutable_as<R>();
  const uint8_t* v = validity ? validity->data() : nullptr;
  for (int64_t i = 0; i < n; ++i) out[i] = (!v || get_bit(v, i)) ? f(x[i], y[i]) : R{};
  return Column::make(rt, n, validity, data);
}

int64_t checked_add(int64_t x, int64_t y, bool subtract) {
  int64_t r;
  if (subtract ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r))
    throw_arithmetic_overflow("long", nullptr);
  return r;
}

int64_t checked_mul_micros(int64_t days) {
  int64_t r;
  if (__builtin_mul_overflow(days, kMicrosPerDay, &r)) throw_arithmetic_overflow("long", nullptr);
  return r;
}

int32_t checked_add32(int32_t x, int32_t y, bool subtract) {
  int32_t r;
  if (subtract ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r))
    throw_arithmetic_overflow("integer", nullptr);
  return r;
}

FunctionDef internal(std::string name, const char* shown, Display display, TypeRule rule, ScalarKernel kernel) {
  FunctionDef d;
  d.name = std::move(name);
  d.internal = true;
  d.min_args = d.max_args = display == Display::kInfix ? 2 : 1;
  d.display = display;
  d.display_name = shown;
  d.type_rule = std::move(rule);
  d.kernel = std::move(kernel);
  d.may_throw = true;
  return d;
}

/// Spark's name for the forms it shows without parentheses: `ts + INTERVAL '1' DAY`.
FunctionDef unparenthesized(FunctionDef d, const char* op) {
  d.render = [op](const std::string&, const std::vector<std::string>& args) {
    return args[0] + " " + op + " " + args[1];
  };
  return d;
}

/// A timestamp's local date-time in the session time zone (a timestamp without time zone is
/// its own), and back.
struct LocalTime {
  LocalTime(const Signature& sig, const EvalContext& ctx, size_t arg = 0)
      : ntz(sig.arg_types[arg]->id() == TypeId::kTimestampNtz), tz(TimeZone::get(ntz ? "UTC" : ctx.time_zone)) {}
  int64_t local(int64_t ts) const { return ntz ? ts : tz.utc_to_local_micros(ts); }
  int64_t utc(int64_t local) const { return ntz ? local : tz.local_to_utc_micros(local); }
  bool ntz;
  const TimeZone& tz;
};

void register_timestamp_day_time(Registry& r, bool subtract) {
  // The interval moves the local date-time, as Spark adds it: a day across a DST change is the
  // same wall-clock time on the next day.
  r.add(unparenthesized(
      internal(subtract ? "timestamp - day-time interval" : "timestamp + day-time interval", subtract ? "-" : "+",
               Display::kInfix, [](const Types& a, const Config&) { return same_args(a, a[0]); },
               [subtract](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
                 LocalTime lt(sig, ctx);
                 return binary_rows<int64_t, int64_t, int64_t>(a, n, sig.result_type, [&](int64_t ts, int64_t us) {
                   return lt.utc(checked_add(lt.local(ts), us, subtract));
                 });
               }),
      subtract ? "-" : "+"));
}

void register_date_year_month(Registry& r, bool subtract) {
  r.add(unparenthesized(internal(subtract ? "date - year-month interval" : "date + year-month interval", subtract ? "-" : "+",
                 Display::kInfix, [](const Types& a, const Config&) { return same_args(a, DataType::date()); },
                 [subtract](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   return binary_rows<int32_t, int32_t, int32_t>(a, n, sig.result_type, [subtract](int32_t d, int32_t m) {
                     int64_t days = add_months_to_days(d, subtract ? -static_cast<int64_t>(m) : m);
                     if (days < INT32_MIN || days > INT32_MAX) throw_arithmetic_overflow("integer", nullptr);
                     return static_cast<int32_t>(days);
                   });
                 }), subtract ? "-" : "+"));
}

void register_timestamp_year_month(Registry& r, bool subtract) {
  r.add(unparenthesized(
      internal(subtract ? "timestamp - year-month interval" : "timestamp + year-month interval", subtract ? "-" : "+",
               Display::kInfix, [](const Types& a, const Config&) { return same_args(a, a[0]); },
               [subtract](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
                 LocalTime lt(sig, ctx);
                 return binary_rows<int64_t, int32_t, int64_t>(a, n, sig.result_type, [&](int64_t ts, int32_t m) {
                   int64_t local = lt.local(ts);
                   int64_t days = floor_div(local, kMicrosPerDay);
                   int64_t time = local - days * kMicrosPerDay;
                   int64_t moved = add_months_to_days(days, subtract ? -static_cast<int64_t>(m) : m);
                   return lt.utc(checked_add(checked_mul_micros(moved), time, false));
                 });
               }),
      subtract ? "-" : "+"));
}

void register_interval_arith(Registry& r, bool subtract) {
  r.add(internal(subtract ? "interval - interval" : "interval + interval", subtract ? "-" : "+", Display::kInfix,
                 [](const Types& a, const Config&) {
                   const DataType& x = *a[0];
                   const DataType& y = *a[1];
                   TypePtr t = x.id() == TypeId::kDayTimeInterval
                                   ? DataType::day_time_interval(std::min(x.start_field(), y.start_field()),
                                                                 std::max(x.end_field(), y.end_field()))
                                   : DataType::year_month_interval(std::min(x.start_field(), y.start_field()),
                                                                   std::max(x.end_field(), y.end_field()));
                   return same_args(a, t);  // the fields do not change how a value is stored
                 },
                 [subtract](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   if (sig.result_type->id() == TypeId::kDayTimeInterval)
                     return binary_rows<int64_t, int64_t, int64_t>(
                         a, n, sig.result_type, [subtract](int64_t x, int64_t y) { return checked_add(x, y, subtract); });
                   return binary_rows<int32_t, int32_t, int32_t>(
                       a, n, sig.result_type, [subtract](int32_t x, int32_t y) { return checked_add32(x, y, subtract); });
                 }));
}

void register_time_day_time(Registry& r, bool subtract) {
  r.add(unparenthesized(
      internal(subtract ? "time - day-time interval" : "time + day-time interval", subtract ? "-" : "+",
               Display::kInfix,
               [](const Types& a, const Config&) {
                 int p = a[0]->time_precision();
                 if (a[1]->end_field() == 3) p = std::max(p, DataType::kDefaultTimePrecision);
                 Signature s = same_args(a, DataType::time(p));
                 s.may_introduce_null = true;  // nullable in Spark whatever the input
                 return s;
               },
               [subtract](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 const int start = sig.arg_types[1]->start_field(), end = sig.arg_types[1]->end_field();
                 return binary_rows<int64_t, int64_t, int64_t>(a, n, sig.result_type, [&](int64_t t, int64_t us) {
                   const int64_t added = subtract ? -us : us;
                   int64_t r;
                   if (us == INT64_MIN || __builtin_mul_overflow(added, kNanosPerMicro, &r) ||
                       __builtin_add_overflow(t, r, &r) || r < 0 || r >= kNanosPerDay) {
                     const std::string what = "add " + format_day_time_interval(added, start, end) +
                                              " to the time value TIME '" + format_time(t) + "'";
                     throw SparkError(ErrorKind::kArithmetic, "DATETIME_OVERFLOW",
                                      "Datetime operation overflow: " + what + ".", {{"operation", what}},
                                      "22008");
                   }
                   return r;
                 });
               }),
      subtract ? "-" : "+"));
}

}  // namespace

void register_datetime_operators(Registry& r) {
  r.add(internal("extractansiintervaldays", "extractansiintervaldays", Display::kCall,
                 [](const Types& a, const Config&) { return same_args(a, DataType::int_()); },
                 [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   const Column& c = *a[0];
                   auto data = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
                   const int64_t* us = c.values<int64_t>();
                   int32_t* out = data->mutable_as<int32_t>();
                   for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int32_t>(us[i] / kMicrosPerDay);
                   return Column::make(sig.result_type, n, c.validity_buffer(), data);
                 }));
  for (bool subtract : {false, true}) {
    register_timestamp_day_time(r, subtract);
    register_date_year_month(r, subtract);
    register_timestamp_year_month(r, subtract);
    register_interval_arith(r, subtract);
    register_time_day_time(r, subtract);
  }
  r.add(unparenthesized(
      internal("time - time", "-", Display::kInfix,
               [](const Types& a, const Config&) {
                 Signature s = same_args(a, DataType::day_time_interval(1, 3));
                 s.may_introduce_null = true;  // nullable in Spark whatever the input
                 return s;
               },
               [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                 return binary_rows<int64_t, int64_t, int64_t>(a, n, sig.result_type, [](int64_t x, int64_t y) {
                   return (x - y) / kNanosPerMicro;
                 });
               }),
      "-"));
  r.add(internal("date - date", "-", Display::kInfix,
                 [](const Types& a, const Config&) { return same_args(a, DataType::day_time_interval(0, 0)); },
                 [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
                   return binary_rows<int32_t, int32_t, int64_t>(a, n, sig.result_type, [](int32_t x, int32_t y) {
                     return (static_cast<int64_t>(x) - y) * kMicrosPerDay;
                   });
                 }));
  r.add(internal("timestamp - timestamp", "-", Display::kInfix,
                 [](const Types& a, const Config&) { return same_args(a, DataType::day_time_interval(0, 3)); },
                 [](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
                   // The difference of the local date-times, as Spark subtracts timestamps.
                   LocalTime lt(sig, ctx);
                   return binary_rows<int64_t, int64_t, int64_t>(a, n, sig.result_type, [&](int64_t x, int64_t y) {
                     return checked_add(lt.local(x), lt.local(y), true);
                   });
                 }));
}

}  // namespace ember::functions
