// Time windows: window(ts, windowDuration[, slideDuration[, startTime]]) groups rows into
// fixed-length windows. The analyzer (plan/time_window.cc) turns a window call into a Generate
// of the windows each row falls in, computed here by the internal time_window_array; window_time
// gives a window's last instant; time_bucket gives the start of the interval bucket a
// timestamp falls in.

#include <vector>

#include "common/datetime.h"
#include "common/error.h"
#include "common/timezone.h"
#include "functions/collection_util.h"
#include "functions/function.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

TypePtr window_struct(const TypePtr& time) {
  return DataType::struct_({{"start", time, true, "{}"}, {"end", time, true, "{}"}});
}

void register_time_window_array(Registry& r) {
  // time_window_array(ts, window_us, slide_us, start_us): the windows [start, end) holding ts,
  // latest first; NULL for a NULL ts (the Generate over it then drops the row, as Spark does).
  FunctionDef d;
  d.name = "time_window_array";
  d.internal = true;
  d.min_args = d.max_args = 4;
  d.arg_type_rule = [](const std::vector<ArgInfo>& a, const Config&) {
    Signature s;
    s.arg_types = {a[0].type, DataType::long_(), DataType::long_(), DataType::long_()};
    // Spark's sliding windows come out of an expansion with nullable columns; tumbling ones not.
    const bool sliding = a[1].literal && a[2].literal && a[1].literal->as_int() != a[2].literal->as_int();
    s.result_type = DataType::array(window_struct(a[0].type), sliding);
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext&) -> ColumnPtr {
    const Column& ts = *a[0];
    const int64_t window = a[1]->values<int64_t>()[0], slide = a[2]->values<int64_t>()[0],
                  start = a[3]->values<int64_t>()[0];
    const int64_t overlapping = (window + slide - 1) / slide;
    ColumnBuilder b(sig.result_type, n);
    const int64_t* t = ts.values<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (!ts.is_valid(i)) {
        b.append_null();
        continue;
      }
      const int64_t last_start = t[i] - floor_mod(t[i] - start, slide);
      Value::List windows;
      for (int64_t k = 0; k < overlapping; ++k) {
        const int64_t ws = last_start - k * slide, we = ws + window;
        if (t[i] >= ws && t[i] < we) windows.push_back(Value::list({Value::integer(ws), Value::integer(we)}));
      }
      b.append_value(Value::list(std::move(windows)));
    }
    return b.finish();
  };
  d.usage = "time_window_array(ts, window, slide, start) - The time windows holding ts.";
  r.add(std::move(d));
}

void register_window_time(Registry& r) {
  FunctionDef d;
  d.name = "window_time";
  d.min_args = d.max_args = 1;
  d.type_rule = [](const std::vector<TypePtr>& a, const Config&) {
    const TypePtr& t = a[0];
    const bool ok = t->id() == TypeId::kStruct && t->fields().size() == 2 && t->fields()[0].name == "start" &&
                    t->fields()[1].name == "end" && t->fields()[1].type->id() == t->fields()[0].type->id() &&
                    (t->fields()[0].type->id() == TypeId::kTimestamp ||
                     t->fields()[0].type->id() == TypeId::kTimestampNtz);
    if (!ok)
      throw_unexpected_input("window_time", a, 0, "\"STRUCT<start: TIMESTAMP, end: TIMESTAMP>\"");
    Signature s;
    s.arg_types = {t};
    s.result_type = t->fields()[1].type;
    s.may_introduce_null = true;  // as Spark declares it
    return s;
  };
  d.kernel = [](const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext&) -> ColumnPtr {
    const Column& w = *a[0];
    const Column& end = *w.child(1);
    ColumnBuilder b(sig.result_type, n);
    const int64_t* e = end.values<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (!w.is_valid(i) || !end.is_valid(i)) b.append_null();
      else b.append<int64_t>(e[i] - 1);
    }
    return b.finish();
  };
  d.usage = "window_time(window) - The last instant of a time window: its end minus one microsecond.";
  r.add(std::move(d));
}

// ---- time_bucket ----------------------------------------------------------------------------

std::string interval_text(const Value& v, const DataType& t) {
  if (t.id() == TypeId::kDayTimeInterval) return format_day_time_interval(v.as_int(), t.start_field(), t.end_field());
  return year_month_interval_text(v.as_int(), t.start_field(), t.end_field());
}

std::string described(const ArgInfo& a) { return a.name.empty() ? a.type->sql() : a.name; }

Signature time_bucket_rule(const std::vector<ArgInfo>& a, const Config&) {
  const std::vector<TypePtr> types = types_of(a);
  const TypeId size = a[0].type->id();
  if (size != TypeId::kDayTimeInterval && size != TypeId::kYearMonthInterval && size != TypeId::kNull)
    throw_unexpected_input("time_bucket", types, 0, "(\"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\")");
  const TypeId ts = a[1].type->id();
  if (ts != TypeId::kTimestamp && ts != TypeId::kTimestampNtz)
    throw_unexpected_input("time_bucket", types, 1, "\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\"");
  if (a.size() > 2 && a[2].type->id() != ts && a[2].type->id() != TypeId::kNull)
    throw_unexpected_input("time_bucket", types, 2, "\"" + a[1].type->sql() + "\"");
  const std::string sql = "time_bucket(" + a[0].type->sql() + ", " + a[1].type->sql() + ")";
  if (!a[0].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `bucketSize` should be a foldable \"" + a[0].type->sql() +
                            "\" expression; however, got \"" + described(a[0]) + "\".",
                        sql);
  if (a.size() > 2 && !a[2].literal)
    throw_type_mismatch("NON_FOLDABLE_INPUT",
                        "the input `origin` should be a foldable \"" + a[2].type->sql() +
                            "\" expression; however, got \"" + described(a[2]) + "\".",
                        sql);
  if (!a[0].literal->is_null() && a[0].literal->as_int() <= 0)
    throw_type_mismatch("VALUE_OUT_OF_RANGE",
                        "The `bucketSize` must be between (0, inf) (current value = " +
                            interval_text(*a[0].literal, *a[0].type) + ").",
                        sql);
  Signature s;
  s.arg_types = types;
  s.result_type = a[1].type;
  return s;
}

/// The start of the bucket holding each timestamp. A TIMESTAMP is bucketed in the session time
/// zone as Spark does: buckets shorter than a day are exact multiples of the size from the
/// origin instant; longer day-time buckets count whole sizes of local wall-clock time from the
/// origin, and their start is the origin moved by the whole days of those sizes on the local
/// calendar plus the rest exactly (days counted towards the origin, so the rest has the span's
/// sign); year-month buckets move the origin's local date by whole
/// months. A TIMESTAMP_NTZ is bucketed the same way in UTC.
ColumnPtr time_bucket_kernel(const std::vector<ColumnPtr>& a, int64_t n, const Signature& sig, const EvalContext& ctx) {
  const bool ntz = sig.result_type->id() == TypeId::kTimestampNtz;
  const TimeZone& tz = TimeZone::get(ntz ? "UTC" : ctx.time_zone);
  auto local = [&](int64_t utc) { return ntz ? utc : tz.utc_to_local_micros(utc); };
  auto utc = [&](int64_t loc) { return ntz ? loc : tz.local_to_utc_micros(loc); };
  ColumnBuilder b(sig.result_type, n);
  const Column& size_col = *a[0];
  const bool size_null = n == 0 || size_col.is_null(0);
  const bool origin_null = a.size() > 2 && (n == 0 || a[2]->is_null(0));
  if (size_null || origin_null) {
    for (int64_t i = 0; i < n; ++i) b.append_null();
    return b.finish();
  }
  const bool months = sig.arg_types[0]->id() == TypeId::kYearMonthInterval;
  const int64_t size = size_col.value_at(0).as_int();
  const int64_t origin = a.size() > 2 ? a[2]->value_at(0).as_int() : utc(0);
  const int64_t origin_local = local(origin);
  const int64_t origin_day = floor_div(origin_local, kMicrosPerDay);
  const int64_t origin_time = origin_local - origin_day * kMicrosPerDay;
  const CivilDate origin_date = civil_from_days(origin_day);
  auto month_start = [&](int64_t k) {
    return utc(add_months_to_days(origin_day, k * size) * kMicrosPerDay + origin_time);
  };
  const Column& ts_col = *a[1];
  const int64_t* ts = ts_col.values<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    if (ts_col.is_null(i)) {
      b.append_null();
      continue;
    }
    const int64_t t = ts[i];
    int64_t start;
    if (months) {
      const CivilDate d = civil_from_days(floor_div(local(t), kMicrosPerDay));
      int64_t k = floor_div((d.year - origin_date.year) * 12 + (d.month - origin_date.month), size);
      start = month_start(k);
      while (start > t) start = month_start(--k);
    } else if (size < kMicrosPerDay) {
      start = origin + floor_div(t - origin, size) * size;
    } else {
      // The whole days of the span are counted towards the origin (truncated, not floored).
      const int64_t span = floor_div(local(t) - origin_local, size) * size;
      const int64_t days = span / kMicrosPerDay;
      start = utc(origin_local + days * kMicrosPerDay) + (span - days * kMicrosPerDay);
    }
    b.append<int64_t>(start);
  }
  return b.finish();
}

void register_time_bucket(Registry& r) {
  FunctionDef d = scalar_args("time_bucket", 2, 3, time_bucket_rule, time_bucket_kernel);
  d.constant_args = {0, 2};
  d.render = [](const std::string&, const std::vector<std::string>& args) {
    // Spark shows the default origin; a timestamp without time zone literal names its type.
    const bool ntz = args[1].rfind("TIMESTAMP_NTZ '", 0) == 0;
    const std::string origin =
        args.size() > 2 ? args[2] : std::string(ntz ? "TIMESTAMP_NTZ" : "TIMESTAMP") + " '1970-01-01 00:00:00'";
    return "time_bucket(" + args[0] + ", " + args[1] + ", " + origin + ")";
  };
  d.usage = "time_bucket(bucket_size, ts[, origin]) - The start of the bucket_size interval bucket holding ts.";
  r.add(std::move(d));
}

}  // namespace

void register_time_window(Registry& r) {
  register_time_window_array(r);
  register_window_time(r);
  register_time_bucket(r);
}

}  // namespace ember::functions
