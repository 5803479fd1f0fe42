#pragma once

// counter_diff(value[, start_time]): the differences between consecutive values of a cumulative
// counter within each window partition, in window order, as Spark 4.3 computes them.

#include "column/column.h"
#include "exec/window_functions.h"

namespace ember::exec {

/// Evaluates counter_diff over every partition of `chunk`. `value` is the counter (a numeric
/// column, or all nulls), `start_time` the optional TIMESTAMP / TIMESTAMP_NTZ column (null when
/// not given). The result has the counter's type. Row by row, with `prev` the last non-null
/// counter before the row and `prev_start` the start time of that row:
///   - a null counter gives null and leaves `prev` as it is;
///   - a negative counter raises COUNTER_DIFF_NEGATIVE_COUNTER_VALUE;
///   - a start time before `prev_start` raises COUNTER_DIFF_START_TIME_DECREASED, one after it
///     (a reset) gives null; a null start time on either side compares as unknown and is passed;
///   - a counter below `prev` (a reset) gives null, as does the first row (no `prev`);
///   - otherwise the result is value - prev, in the counter's type (it cannot overflow).
/// Floating point values compare as Spark orders them: NaN above every number and equal to
/// itself, -0.0 equal to 0.0.
ColumnPtr evaluate_counter_diff(const TypePtr& type, const ColumnPtr& value, const ColumnPtr& start_time,
                                const WindowChunk& chunk, const functions::EvalContext& ctx);

}  // namespace ember::exec
