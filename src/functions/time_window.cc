// Time windows: window(ts, windowDuration[, slideDuration[, startTime]]) groups rows into
// fixed-length windows. The analyzer (plan/time_window.cc) turns a window call into a Generate
// of the windows each row falls in, computed here by the internal time_window_array; window_time
// gives a window's last instant.

#include <vector>

#include "common/error.h"
#include "functions/collection_util.h"
#include "functions/function.h"

namespace ember::functions {
namespace {

int64_t floor_mod(int64_t a, int64_t b) {
  int64_t m = a % b;
  return m < 0 ? m + b : m;
}

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

}  // namespace

void register_time_window(Registry& r) {
  register_time_window_array(r);
  register_window_time(r);
}

}  // namespace ember::functions
