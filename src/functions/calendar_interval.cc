// The calendar interval (Spark's `interval`: months, days, microseconds; common/calendar_interval.h)
// and its functions: make_interval, try_make_interval, and the internal functions the analyzer
// rewrites operators into (plan/datetime_arithmetic.cc):
//
//   multiply_interval(i, n), divide_interval(i, n)   i * n, n * i, i / n (n as DOUBLE)
//   calendar interval ± calendar interval           field by field
//   date ± calendar interval                        months then days of the date (ANSI: an
//                                                   interval with microseconds is an error)
//   timestamp ± calendar interval                   months then days of the local date-time,
//                                                   then the microseconds of the instant
//
// try_multiply, try_divide, try_add and try_subtract reach the same kernels with NULL for
// overflow (arithmetic.cc). Overflow errors are ARITHMETIC_OVERFLOW with Spark's bare
// "overflow" message.

#include "functions/calendar_interval.h"
#include "functions/cast.h"

#include <cmath>

#include "common/calendar_interval.h"
#include "common/datetime.h"
#include "common/timezone.h"
#include "functions/kernel_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

bool is_calendar(const TypePtr& t) { return t->id() == TypeId::kCalendarInterval; }

[[noreturn]] void interval_overflow() { throw_arithmetic_overflow("", nullptr); }

/// One calendar interval result per row of `args` (rows with a null argument are null);
/// `op(i, &out)` false makes the row an overflow, raised or null by `mode`.
template <typename Op>
ColumnPtr interval_rows(const Args& args, int64_t n, const TypePtr& rt, IntervalOverflow mode, Op op) {
  return map_rows(args, n, rt, [&](int64_t i, ColumnBuilder& b) {
    CalendarInterval out;
    if (op(i, &out)) {
      b.append<CalendarInterval>(out);
      return;
    }
    if (mode == IntervalOverflow::kError) interval_overflow();
    b.append_null();
  });
}

IntervalOverflow overflow_mode(const EvalContext& ctx, bool try_form) {
  return try_form ? IntervalOverflow::kNull : ctx.ansi ? IntervalOverflow::kError : IntervalOverflow::kSaturate;
}

// ---- make_interval ----------------------------------------------------------------------------

/// Spark names a call by its seven arguments, the missing ones as their defaults.
std::string render_make_interval(const std::string& called, const std::vector<std::string>& args) {
  static const char* kDefaults[] = {"0", "0", "0", "0", "0", "0", "0.000000"};
  std::string s = called + "(";
  for (size_t i = 0; i < 7; ++i) s += (i ? ", " : "") + (i < args.size() ? args[i] : std::string(kDefaults[i]));
  return s + ")";
}

FunctionDef make_interval_def(const char* name, bool try_form) {
  FunctionDef d = scalar(
      name, try_form ? 1 : 0, 7,
      [name, try_form](const Types& a, const Config& conf) {
        static const char* kOrdinals[] = {"first", "second", "third", "fourth", "fifth", "sixth"};
        Signature s;
        s.result_type = DataType::calendar_interval();
        for (size_t k = 0; k < a.size(); ++k) {
          const TypeId id = a[k]->id();
          bool ok = a[k]->is_numeric() || id == TypeId::kString || id == TypeId::kNull;
          if (!ok) {
            const bool secs = k == 6;
            throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                                std::string("The ") + (secs ? "seventh" : kOrdinals[k]) + " parameter requires the \"" +
                                    (secs ? "DECIMAL(18,6)" : "INT") + "\" type, however \"" + a[k]->sql() +
                                    "\" has the type \"" + a[k]->sql() + "\".",
                                call_sql(name, a));
          }
          // The seconds keep their type: the kernel casts them to DECIMAL(18,6) where Spark would.
          s.arg_types.push_back(k == 6 ? (id == TypeId::kNull ? DataType::decimal(18, 6) : a[k]) : DataType::int_());
        }
        // The seconds' cast to DECIMAL(18,6) gives NULL for NaN and the infinities in any mode.
        s.may_introduce_null = try_form || !conf.ansi_enabled() ||
                               (a.size() > 6 && cast_forces_null(*a[6], *DataType::decimal(18, 6)));
        return s;
      },
      [try_form](const Args& given, int64_t n, const Signature& sig, const EvalContext& ctx) {
        Args a = given;
        for (size_t k = a.size(); k < 7; ++k)
          a.push_back(Column::constant(k == 6 ? DataType::decimal(18, 6) : DataType::int_(),
                                       k == 6 ? Value::decimal(0) : Value::integer(0), n));
        // Spark casts the seconds only where the other fields are not null.
        a[6] = cast_after_valid(Args(a.begin(), a.begin() + 6), a[6], DataType::decimal(18, 6), ctx);
        return interval_rows(a, n, sig.result_type, overflow_mode(ctx, try_form),
                             [&](int64_t i, CalendarInterval* out) {
                               // DECIMAL(18,6): the unscaled value is the microseconds.
                               auto sec_micros = static_cast<int64_t>(a[6]->values<int128_t>()[i]);
                               return make_calendar_interval(int_arg(a, 0, i), int_arg(a, 1, i), int_arg(a, 2, i),
                                                             int_arg(a, 3, i), int_arg(a, 4, i), int_arg(a, 5, i),
                                                             sec_micros, out);
                             });
      });
  d.render = render_make_interval;
  d.may_throw = true;
  d.usage = try_form ? "try_make_interval([years[, months[, weeks[, days[, hours[, mins[, secs]]]]]]]) - This is a "
                       "special version of `make_interval` that performs the same operation, but returns NULL when "
                       "an overflow occurs."
                     : "make_interval([years[, months[, weeks[, days[, hours[, mins[, secs]]]]]]]) - Make interval "
                       "from years, months, weeks, days, hours, mins and secs.";
  return d;
}

// ---- Internal operator forms ----------------------------------------------------------------

FunctionDef internal_def(std::string name, const char* shown, Display display, TypeRule rule, ScalarKernel kernel) {
  FunctionDef d;
  d.name = std::move(name);
  d.internal = true;
  d.min_args = d.max_args = 2;
  d.display = display;
  d.display_name = shown;
  d.type_rule = std::move(rule);
  d.kernel = std::move(kernel);
  d.may_throw = true;
  return d;
}

/// Spark shows datetime ± interval without parentheses: `DATE '2020-01-31' + make_interval(...)`.
FunctionDef unparenthesized(FunctionDef d) {
  std::string op = d.display_name;
  d.render = [op](const std::string&, const std::vector<std::string>& args) {
    return args[0] + " " + op + " " + args[1];
  };
  return d;
}

/// Moves a local date-time (microseconds) by whole months, the day clamped to the month's end,
/// then by days, as LocalDateTime.plusMonths(m).plusDays(d). False outside the long range.
bool local_plus_months_days(int64_t local, int32_t months, int32_t days, int64_t* out) {
  int64_t day = floor_div(local, kMicrosPerDay);
  const int64_t time_of_day = local - day * kMicrosPerDay;
  day = add_months_to_days(day, months) + days;
  return !__builtin_mul_overflow(day, kMicrosPerDay, out) && !__builtin_add_overflow(*out, time_of_day, out);
}

/// Spark's timestampAddInterval: months and days move the local date-time in `tz` (the
/// instant's own for TIMESTAMP_NTZ), the microseconds the instant.
bool timestamp_plus_interval(int64_t ts, const CalendarInterval& v, const TimeZone* tz, int64_t* out) {
  int64_t moved = ts;
  if (v.months != 0 || v.days != 0) {
    int64_t local = tz ? tz->utc_to_local_micros(ts) : ts;
    if (!local_plus_months_days(local, v.months, v.days, &local)) return false;
    moved = tz ? tz->local_to_utc_micros(local) : local;
  }
  return !__builtin_add_overflow(moved, v.micros, out);
}

const CalendarInterval& interval_at(const Column& c, int64_t i) { return c.values<CalendarInterval>()[i]; }

/// The interval an operator adds: itself, or its negation for `-` (negating the minimum of a
/// field overflows).
bool signed_interval(const CalendarInterval& v, bool subtract, CalendarInterval* out) {
  if (!subtract) {
    *out = v;
    return true;
  }
  return negate_calendar_interval(v, out);
}

void register_interval_interval(Registry& r, bool subtract, bool try_form) {
  const char* op = subtract ? "-" : "+";
  std::string name = std::string("calendar interval ") + op + " calendar interval" + (try_form ? " (try)" : "");
  r.add(internal_def(name, op, Display::kInfix,
                     [try_form](const Types& a, const Config&) {
                       Signature s = same_args(a, DataType::calendar_interval());
                       s.may_introduce_null = try_form;
                       return s;
                     },
                     [subtract, try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
                       return interval_rows(a, n, sig.result_type,
                                            try_form ? IntervalOverflow::kNull : IntervalOverflow::kError,
                                            [&](int64_t i, CalendarInterval* out) {
                                              (void)ctx;
                                              return add_calendar_intervals(interval_at(*a[0], i), interval_at(*a[1], i),
                                                                            subtract, out);
                                            });
                     }));
}

void register_date_interval(Registry& r, bool subtract, bool try_form) {
  const char* op = subtract ? "-" : "+";
  std::string name = std::string("date ") + op + " calendar interval" + (try_form ? " (try)" : "");
  r.add(unparenthesized(internal_def(
      name, op, Display::kInfix,
      [try_form](const Types& a, const Config& conf) {
        Signature s = same_args(a, DataType::date());
        // The seconds' cast to DECIMAL(18,6) gives NULL for NaN and the infinities in any mode.
        s.may_introduce_null = try_form || !conf.ansi_enabled() ||
                               (a.size() > 6 && cast_forces_null(*a[6], *DataType::decimal(18, 6)));
        return s;
      },
      [subtract, try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
        const TimeZone& tz = TimeZone::get(ctx.time_zone);
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          const int32_t date = a[0]->values<int32_t>()[i];
          CalendarInterval v;
          if (!signed_interval(interval_at(*a[1], i), subtract, &v)) {
            if (!try_form) interval_overflow();
            b.append_null();
            return;
          }
          int64_t days;
          if (v.micros == 0) {
            days = add_months_to_days(date, v.months) + v.days;
          } else if (try_form) {
            b.append_null();  // try_add evaluates the ANSI form and turns its error into NULL
            return;
          } else if (ctx.ansi) {
            throw SparkError(ErrorKind::kIllegalArgument, "INVALID_INTERVAL_WITH_MICROSECONDS_ADDITION",
                             "Cannot add an interval to a date because its microseconds part is not 0. To resolve "
                             "this, cast the input date to a timestamp, which supports the addition of intervals "
                             "with non-zero microseconds.",
                             {}, "22006");
          } else {
            // Legacy: the date's midnight in the session time zone moves as a timestamp.
            int64_t ts;
            if (!timestamp_plus_interval(tz.local_to_utc_micros(date * kMicrosPerDay), v, &tz, &ts)) {
              b.append_null();
              return;
            }
            days = floor_div(tz.utc_to_local_micros(ts), kMicrosPerDay);
          }
          if (days < INT32_MIN || days > INT32_MAX) {
            if (!try_form) throw_arithmetic_overflow("integer", nullptr);
            b.append_null();
            return;
          }
          b.append<int32_t>(static_cast<int32_t>(days));
        });
      })));
}

void register_timestamp_interval(Registry& r, bool subtract, bool try_form) {
  const char* op = subtract ? "-" : "+";
  std::string name = std::string("timestamp ") + op + " calendar interval" + (try_form ? " (try)" : "");
  r.add(unparenthesized(internal_def(
      name, op, Display::kInfix,
      [try_form](const Types& a, const Config&) {
        Signature s = same_args(a, a[0]);
        s.may_introduce_null = try_form;
        return s;
      },
      [subtract, try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
        const TimeZone* tz = sig.arg_types[0]->id() == TypeId::kTimestamp ? &TimeZone::get(ctx.time_zone) : nullptr;
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          CalendarInterval v;
          int64_t ts;
          if (signed_interval(interval_at(*a[1], i), subtract, &v) &&
              timestamp_plus_interval(a[0]->values<int64_t>()[i], v, tz, &ts)) {
            b.append<int64_t>(ts);
            return;
          }
          if (!try_form) throw_arithmetic_overflow("long", nullptr);
          b.append_null();
        });
      })));
}

void register_scale(Registry& r, bool divide) {
  const char* name = divide ? "divide_interval" : "multiply_interval";
  r.add(internal_def(
      name, name, Display::kCall,
      [divide](const Types& a, const Config&) {
        // The analyzer only rewrites operators with an interval operand here.
        return *interval_scale_signature(a, divide, divide ? "/" : "*");
      },
      [divide](const Args& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
        return interval_scale(a, n, sig, divide, overflow_mode(ctx, false));
      }));
}

}  // namespace

bool timestamp_add_interval(int64_t ts, int32_t months, int32_t days, int64_t micros, const TimeZone* tz,
                            int64_t* out) {
  CalendarInterval v;
  v.months = months;
  v.days = days;
  v.micros = micros;
  return timestamp_plus_interval(ts, v, tz, out);
}

std::optional<Signature> interval_scale_signature(const std::vector<TypePtr>& args, bool divide,
                                                  const char* op_sql) {
  if (args.size() != 2 || (!is_calendar(args[0]) && !is_calendar(args[1]))) return std::nullopt;
  const char* fn = divide ? "divide_interval" : "multiply_interval";
  const size_t interval = is_calendar(args[0]) ? 0 : 1;
  const size_t number = 1 - interval;
  if (divide && interval == 1) {
    throw_type_mismatch("BINARY_OP_DIFF_TYPES",
                        "the left and right operands of the binary operator have incompatible types (\"" +
                            args[0]->sql() + "\" and \"" + args[1]->sql() + "\").",
                        args[0]->sql() + " " + op_sql + " " + args[1]->sql());
  }
  const TypeId id = args[number]->id();
  if (!(args[number]->is_numeric() || id == TypeId::kString || id == TypeId::kNull)) {
    throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                        "The second parameter requires the \"DOUBLE\" type, however \"" + args[number]->sql() +
                            "\" has the type \"" + args[number]->sql() + "\".",
                        call_sql(fn, {args[interval], args[number]}));
  }
  Signature s;
  s.arg_types = args;
  s.arg_types[number] = DataType::double_();
  s.result_type = DataType::calendar_interval();
  s.may_introduce_null = true;  // Spark's MultiplyInterval and DivideInterval are nullable
  return s;
}

ColumnPtr interval_scale(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, bool divide,
                         IntervalOverflow mode) {
  const size_t interval = is_calendar(args[0]->type()) ? 0 : 1;
  const Column& iv = *args[interval];
  const double* num = args[1 - interval]->values<double>();
  return map_rows(args, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const CalendarInterval& v = interval_at(iv, i);
    if (divide && num[i] == 0) {
      if (mode == IntervalOverflow::kError)
        throw SparkError(ErrorKind::kArithmetic, "INTERVAL_DIVIDED_BY_ZERO",
                         "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead.",
                         {}, "22012");
      b.append_null();
      return;
    }
    CalendarInterval out;
    if (scale_calendar_interval(v, num[i], divide, mode == IntervalOverflow::kSaturate, &out)) {
      b.append<CalendarInterval>(out);
      return;
    }
    if (mode == IntervalOverflow::kError) interval_overflow();
    b.append_null();
  });
}

const FunctionDef* calendar_interval_operator(const TypePtr& left, const TypePtr& right, bool subtract,
                                              bool try_form, bool* swap) {
  auto kind = [](const TypePtr& t) -> const char* {
    switch (t->id()) {
      case TypeId::kDate: return "date ";
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: return "timestamp ";
      case TypeId::kCalendarInterval: return "calendar interval ";
      default: return nullptr;
    }
  };
  *swap = !is_calendar(right) && !subtract && is_calendar(left);
  const TypePtr& base = *swap ? right : left;
  const TypePtr& interval = *swap ? left : right;
  if (!is_calendar(interval) || !kind(base)) return nullptr;
  return Registry::instance().find_internal(std::string(kind(base)) + (subtract ? "-" : "+") +
                                            " calendar interval" + (try_form ? " (try)" : ""));
}

void register_calendar_interval(Registry& r) {
  r.add(make_interval_def("make_interval", false));
  r.add(make_interval_def("try_make_interval", true));
  for (bool subtract : {false, true}) {
    for (bool try_form : {false, true}) {
      register_interval_interval(r, subtract, try_form);
      register_date_interval(r, subtract, try_form);
      register_timestamp_interval(r, subtract, try_form);
    }
  }
  register_scale(r, false);
  register_scale(r, true);
}

}  // namespace ember::functions
