// counter_diff over sorted window partitions (see window_counter_diff.h).

#include "exec/window_counter_diff.h"

#include <cmath>
#include <type_traits>

#include "common/error.h"
#include "functions/cast.h"
#include "functions/kernel_util.h"

namespace ember::exec {
namespace {

/// Spark's `<` on the counter's values: NaN is the greatest value and equals itself.
template <typename T>
bool spark_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

/// Row `row` of `c` as CAST(... AS STRING) prints it, for error messages.
std::string value_text(const ColumnPtr& c, int64_t row, const functions::EvalContext& ctx) {
  ColumnPtr s = functions::cast_column(slice(c, row, 1), DataType::string(), ctx);
  return std::string(s->string_at(0));
}

template <typename T>
ColumnPtr counter_diff(const TypePtr& type, const ColumnPtr& value, const ColumnPtr& start,
                       const WindowChunk& chunk, const functions::EvalContext& ctx) {
  ColumnBuilder out(type, chunk.length);
  const T* v = value->values<T>();
  const int64_t* st = start ? start->values<int64_t>() : nullptr;
  for (size_t p = 0; p + 1 < chunk.partition_starts.size(); ++p) {
    bool has_prev = false;
    T prev{};
    int64_t prev_row = -1;  // the row of `prev`, whose start time counts
    for (int64_t i = chunk.partition_starts[p]; i < chunk.partition_starts[p + 1]; ++i) {
      if (value->is_null(i)) {
        out.append_null();
        continue;
      }
      const T cur = v[i];
      if (spark_less(cur, T{}))
        throw SparkError(ErrorKind::kRuntime, "COUNTER_DIFF_NEGATIVE_COUNTER_VALUE",
                         "A negative counter value " + value_text(value, i, ctx) +
                             " was provided to function `counter_diff`. Negative counter values are not allowed.",
                         {{"value", value_text(value, i, ctx)}, {"function", "`counter_diff`"}}, "22003");
      bool reset = !has_prev;
      if (st && prev_row >= 0 && !start->is_null(prev_row) && !start->is_null(i)) {
        if (st[i] < st[prev_row]) {
          const std::string from = value_text(start, prev_row, ctx), to = value_text(start, i, ctx);
          throw SparkError(ErrorKind::kRuntime, "COUNTER_DIFF_START_TIME_DECREASED",
                           "Start time provided to function `counter_diff` decreased from " + from + " to " + to +
                               ". Start time is required to be non-decreasing.",
                           {{"function", "`counter_diff`"}, {"previousStartTime", from}, {"currentStartTime", to}},
                           "22023");
        }
        reset |= st[prev_row] < st[i];
      }
      reset |= has_prev && spark_less(cur, prev);
      if (reset) out.append_null();
      else out.append<T>(static_cast<T>(cur - prev));
      has_prev = true;
      prev = cur;
      prev_row = i;
    }
  }
  return out.finish();
}

}  // namespace

ColumnPtr evaluate_counter_diff(const TypePtr& type, const ColumnPtr& value, const ColumnPtr& start_time,
                                const WindowChunk& chunk, const functions::EvalContext& ctx) {
  // An untyped NULL start time is no start time.
  const ColumnPtr s = start_time && start_time->type()->id() != TypeId::kNull ? start_time : nullptr;
  if (type->id() == TypeId::kNull) {
    ColumnBuilder out(type, chunk.length);
    for (int64_t i = 0; i < chunk.length; ++i) out.append_null();
    return out.finish();
  }
  return functions::dispatch_fixed(type->id(), [&]<typename T>() { return counter_diff<T>(type, value, s, chunk, ctx); });
}

}  // namespace ember::exec
