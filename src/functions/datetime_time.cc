// The TIME type's functions: make_time, to_time/try_to_time, time_from_seconds/millis/micros,
// time_to_seconds/millis/micros, time_trunc, time_diff, current_time. TIME values are int64
// nanoseconds since midnight in [0, 86400 * 10^9); the functions that build one raise
// DATETIME_FIELD_OUT_OF_BOUNDS for values outside a day whatever the ANSI mode, as Spark does.
// Apache Spark 4.3 still keeps these functions behind spark.sql.timeType.enabled (off by default
// outside its own test runs, UNSUPPORTED_TIME_TYPE otherwise); Ember always provides them.

#include <cmath>
#include <limits>
#include <memory>

#include "common/datetime.h"
#include "common/datetime_pattern.h"
#include "common/timezone.h"
#include "functions/collection_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

using Args = std::vector<ColumnPtr>;
using Types = std::vector<TypePtr>;

[[noreturn]] void time_out_of_bounds(const std::string& range_message) {
  throw SparkError(ErrorKind::kDateTime, "DATETIME_FIELD_OUT_OF_BOUNDS.WITHOUT_SUGGESTION",
                   range_message + ". ",
                   {{"rangeMessage", range_message}, {"ansiConfig", "\"spark.sql.ansi.enabled\""}},
                   "22023");
}

[[noreturn]] void field_out_of_bounds(const char* field, const char* range, int64_t v) {
  time_out_of_bounds(std::string("Invalid value for ") + field + " (valid values " + range +
                     "): " + std::to_string(v));
}

/// A nanosecond count checked to be a time of day.
int64_t checked_time(int64_t nanos) {
  if (nanos < 0 || nanos >= kNanosPerDay) {
    time_out_of_bounds(
        "Invalid TIME value: must be between 00:00:00 and 23:59:59.999999999, but got " +
        std::to_string(nanos) + " nanoseconds");
  }
  return nanos;
}

[[noreturn]] void time_overflow() { time_out_of_bounds("Overflow in TIME conversion"); }

[[noreturn]] void unexpected_type(const std::string& fn, const Types& a, size_t k,
                                  const std::string& wanted) {
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      std::string("The ") + ordinal_word(k) + " parameter requires the \"" + wanted +
                          "\" type, however \"" + a[k]->sql() + "\" has the type \"" +
                          a[k]->sql() + "\".",
                      call_sql(fn, a));
}

/// The TIME an argument is taken as: a TIME as it is, a string cast to TIME(6).
TypePtr time_arg(const std::string& fn, const Types& a, size_t k) {
  switch (a[k]->id()) {
    case TypeId::kTime: return a[k];
    case TypeId::kString:
    case TypeId::kNull: return DataType::time();
    default: unexpected_type(fn, a, k, "TIME");
  }
}

TypePtr string_arg(const std::string& fn, const Types& a, size_t k) {
  if (a[k]->id() != TypeId::kString && a[k]->id() != TypeId::kNull)
    unexpected_type(fn, a, k, "STRING");
  return DataType::string();
}

int64_t time_at(const Args& a, size_t k, int64_t i) { return a[k]->values<int64_t>()[i]; }

/// Nanoseconds of one unit of time_trunc / time_diff, or an INVALID_PARAMETER_VALUE error.
int64_t unit_nanos(std::string_view unit, const std::string& fn) {
  std::string u(unit);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (u == "HOUR") return 3600 * kNanosPerSecond;
  if (u == "MINUTE") return 60 * kNanosPerSecond;
  if (u == "SECOND") return kNanosPerSecond;
  if (u == "MILLISECOND") return 1000000;
  if (u == "MICROSECOND") return 1000;
  throw SparkError(ErrorKind::kIllegalArgument, "INVALID_PARAMETER_VALUE.TIME_UNIT",
                   "The value of parameter(s) `unit` in `" + fn +
                       "` is invalid: expects one of the units 'HOUR', 'MINUTE', 'SECOND', "
                       "'MILLISECOND', 'MICROSECOND', but got ''" + std::string(unit) + "''.",
                   {{"parameter", "`unit`"}, {"functionName", "`" + fn + "`"},
                    {"invalidValue", "'" + std::string(unit) + "'"}},
                   "22023");
}

// ---- make_time ------------------------------------------------------------------------------

Signature make_time_rule(const Types& a, const Config&) {
  Signature s;
  for (size_t k = 0; k < 3; ++k) {
    const TypeId id = a[k]->id();
    if (!(a[k]->is_numeric() || id == TypeId::kString || id == TypeId::kNull))
      unexpected_type("make_time", a, k, k < 2 ? "INT" : "DECIMAL(16,6)");
  }
  // Spark casts the hour and minute to INT and the seconds to DECIMAL(16, 6).
  s.arg_types = {DataType::int_(), DataType::int_(), DataType::decimal(16, 6)};
  s.result_type = DataType::time();
  s.may_introduce_null = true;  // Spark's make_time is always nullable
  return s;
}

ColumnPtr make_time_kernel(const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    const int64_t h = int_arg(a, 0, i), m = int_arg(a, 1, i);
    const int128_t micros = a[2]->values<int128_t>()[i];  // DECIMAL(16, 6)
    if (h < 0 || h > 23) field_out_of_bounds("HourOfDay", "0 - 23", h);
    if (m < 0 || m > 59) field_out_of_bounds("MinuteOfHour", "0 - 59", m);
    if (micros < 0 || micros >= 60 * kMicrosPerSecond)
      field_out_of_bounds("SecondOfMinute", "0 - 59", static_cast<int64_t>(micros / kMicrosPerSecond));
    b.append<int64_t>((h * 3600 + m * 60) * kNanosPerSecond +
                      static_cast<int64_t>(micros) * kNanosPerMicro);
  });
}

// ---- to_time / try_to_time ------------------------------------------------------------------

constexpr const char* kDefaultTimePattern = "HH:mm:ss.SSSSSS";

ColumnPtr to_time_kernel(const Args& a, int64_t n, const Signature& sig, bool try_form) {
  std::unique_ptr<DateTimePattern> pattern;
  std::string last;
  return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
    std::string_view s = a[0]->string_at(i);
    int64_t nanos = 0;
    bool ok;
    if (a.size() > 1) {
      std::string_view p = a[1]->string_at(i);
      if (!pattern || p != last) {
        pattern = std::make_unique<DateTimePattern>(std::string(p));
        last = std::string(p);
      }
      DateTimePattern::Result r;
      ok = pattern->parse(s, &r);
      if (ok) {
        nanos = (r.hour * 3600LL + r.minute * 60LL + r.second) * kNanosPerSecond +
                r.micros * kNanosPerMicro + r.sub_micro_nanos;
      }
    } else {
      ok = parse_time(s, &nanos);
    }
    if (!ok) {
      if (try_form) {
        b.append_null();
        return;
      }
      const std::string format = a.size() > 1 ? last : kDefaultTimePattern;
      throw SparkError(ErrorKind::kDateTime, "CANNOT_PARSE_TIME",
                       "The input string '" + std::string(s) +
                           "' cannot be parsed to a TIME value because it does not match to the "
                           "datetime format '" + format + "'.",
                       {{"input", "'" + std::string(s) + "'"}, {"format", "'" + format + "'"}},
                       "22010");
    }
    b.append<int64_t>(nanos);
  });
}

// ---- time_from_* / time_to_* ----------------------------------------------------------------

/// time_from_seconds: nanoseconds of a number of seconds (integers, decimals exactly, floating
/// point truncated to nanoseconds and saturated as a Java long cast does).
int64_t seconds_to_nanos(const Column& c, int64_t i) {
  const DataType& t = *c.type();
  if (t.id() == TypeId::kDecimal) {
    int128_t v = c.values<int128_t>()[i];
    for (int s = t.scale(); s > 9; --s) v /= 10;
    for (int s = t.scale(); s < 9; ++s) {
      if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
        time_overflow();
      v *= 10;
    }
    if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
      time_overflow();
    return static_cast<int64_t>(v);
  }
  if (t.is_floating()) {
    const double d = t.id() == TypeId::kFloat ? c.values<float>()[i] : c.values<double>()[i];
    if (std::isnan(d) || std::isinf(d))
      time_out_of_bounds("Cannot convert NaN or Infinite value to TIME");
    const double ns = d * 1e9;
    if (ns >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (ns <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(ns);
  }
  const int64_t v = dispatch_fixed(t.id(), [&]<typename T>() -> int64_t {
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(c.values<T>()[i]);
    else return 0;
  });
  int64_t ns;
  if (__builtin_mul_overflow(v, kNanosPerSecond, &ns)) time_overflow();
  return ns;
}

void register_from(Registry& r, const std::string& fn, int64_t unit_nanos_) {
  const bool seconds = unit_nanos_ == kNanosPerSecond;
  r.add(scalar(
      fn, 1, 1,
      [fn, seconds](const Types& a, const Config&) {
        Signature s;
        if (a[0]->id() == TypeId::kNull) {
          s.arg_types = {seconds ? DataType::decimal(14, 6) : DataType::long_()};
        } else if (seconds ? a[0]->is_numeric() : a[0]->is_integral()) {
          s.arg_types = {a[0]};
        } else {
          unexpected_type(fn, a, 0, seconds ? "NUMERIC" : "INTEGRAL");
        }
        s.result_type = DataType::time();
        s.may_introduce_null = true;  // nullable in Spark whatever the input
        return s;
      },
      [unit_nanos_, seconds](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          if (seconds) {
            b.append<int64_t>(checked_time(seconds_to_nanos(*a[0], i)));
            return;
          }
          const int64_t v = dispatch_fixed(a[0]->type()->id(), [&]<typename T>() -> int64_t {
            if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(a[0]->values<T>()[i]);
            else return 0;
          });
          int64_t ns;
          if (__builtin_mul_overflow(v, unit_nanos_, &ns)) time_overflow();
          b.append<int64_t>(checked_time(ns));
        });
      }));
}

void register_to(Registry& r, const std::string& fn, int64_t unit) {
  const bool seconds = unit == kNanosPerSecond;
  r.add(scalar(
      fn, 1, 1,
      [fn, seconds](const Types& a, const Config&) {
        Signature s;
        s.arg_types = {time_arg(fn, a, 0)};
        // Seconds keep six fraction digits (rounded half up), as DECIMAL(14, 6).
        s.result_type = seconds ? DataType::decimal(14, 6) : DataType::long_();
        s.may_introduce_null = true;  // nullable in Spark whatever the input
        return s;
      },
      [unit, seconds](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          const int64_t nanos = time_at(a, 0, i);
          if (seconds)
            b.append<int128_t>((nanos + kNanosPerMicro / 2) / kNanosPerMicro);
          else
            b.append<int64_t>(nanos / unit);
        });
      }));
}

}  // namespace

void register_datetime_time(Registry& r) {
  r.add(scalar("make_time", 3, 3, make_time_rule, make_time_kernel));

  for (bool try_form : {false, true}) {
    const std::string fn = try_form ? "try_to_time" : "to_time";
    FunctionDef d = scalar(
        fn, 1, 2,
        [fn, try_form](const Types& a, const Config&) {
          Signature s;
          for (size_t k = 0; k < a.size(); ++k) s.arg_types.push_back(string_arg(fn, a, k));
          s.result_type = DataType::time();
          s.may_introduce_null = try_form;
          return s;
        },
        [try_form](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
          return to_time_kernel(a, n, sig, try_form);
        });
    if (try_form) {
      // Spark names the call after the to_time it wraps.
      d.render = [](const std::string& called, const std::vector<std::string>& args) {
        std::string s = called + "(to_time(";
        for (size_t k = 0; k < args.size(); ++k) s += (k ? ", " : "") + args[k];
        return s + "))";
      };
    }
    r.add(std::move(d));
  }

  register_from(r, "time_from_seconds", kNanosPerSecond);
  register_from(r, "time_from_millis", 1000000);
  register_from(r, "time_from_micros", 1000);
  register_to(r, "time_to_seconds", kNanosPerSecond);
  register_to(r, "time_to_millis", 1000000);
  register_to(r, "time_to_micros", 1000);

  r.add(scalar(
      "time_trunc", 2, 2,
      [](const Types& a, const Config&) {
        Signature s;
        s.arg_types = {string_arg("time_trunc", a, 0), time_arg("time_trunc", a, 1)};
        s.result_type = s.arg_types[1];
        s.may_introduce_null = true;  // nullable in Spark whatever the input
        return s;
      },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          const int64_t unit = unit_nanos(a[0]->string_at(i), "time_trunc");
          const int64_t t = time_at(a, 1, i);
          b.append<int64_t>(t - t % unit);
        });
      }));

  r.add(scalar(
      "time_diff", 3, 3,
      [](const Types& a, const Config&) {
        Signature s;
        s.arg_types = {string_arg("time_diff", a, 0), time_arg("time_diff", a, 1),
                       time_arg("time_diff", a, 2)};
        s.result_type = DataType::long_();
        s.may_introduce_null = true;  // nullable in Spark whatever the input
        return s;
      },
      [](const Args& a, int64_t n, const Signature& sig, const EvalContext&) {
        return map_rows(a, n, sig.result_type, [&](int64_t i, ColumnBuilder& b) {
          const int64_t unit = unit_nanos(a[0]->string_at(i), "time_diff");
          b.append<int64_t>((time_at(a, 2, i) - time_at(a, 1, i)) / unit);
        });
      }));

  {
    FunctionDef d;
    d.name = "current_time";
    d.min_args = 0;
    d.max_args = 1;
    d.constant_args = {0};
    d.deterministic = false;
    d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
      Signature s;
      int precision = DataType::kDefaultTimePrecision;
      if (!a.empty()) {
        if (!a[0].type->is_integral() || a[0].literal == nullptr || a[0].literal->is_null()) {
          throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                              "The first parameter requires the \"INT\" type, however \"" +
                                  a[0].type->sql() + "\" has the type \"" + a[0].type->sql() + "\".",
                              "current_time(" + a[0].type->sql() + ")");
        }
        const int64_t p = a[0].literal->as_int();
        if (p < 0 || p > DataType::kMaxTimePrecision) {
          throw SparkError(ErrorKind::kAnalysis, "INVALID_PARAMETER_VALUE.TIME_PRECISION",
                           "The value of parameter(s) `precision` in `current_time` is invalid: "
                           "expects a value between 0 and 9, but got " + std::to_string(p) + ".",
                           {}, "22023");
        }
        precision = static_cast<int>(p);
        s.arg_types = {a[0].type};
      }
      s.result_type = DataType::time(precision);
      s.never_null = true;
      return s;
    };
    d.kernel = [](const Args&, int64_t n, const Signature& sig, const EvalContext& ctx) {
      const int64_t local = TimeZone::get(ctx.time_zone).utc_to_local_micros(ctx.now());
      const int64_t nanos = floor_mod(local, kMicrosPerDay) * kNanosPerMicro;
      return Column::constant(sig.result_type,
                              Value::integer(truncate_time(nanos, sig.result_type->time_precision())),
                              n);
    };
    // Spark shows the precision it defaulted: current_time(6).
    d.render = [](const std::string& called, const std::vector<std::string>& args) {
      return called + "(" + (args.empty() ? std::string("6") : args[0]) + ")";
    };
    r.add(std::move(d));
  }
}

}  // namespace ember::functions
