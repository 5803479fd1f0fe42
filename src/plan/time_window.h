#pragma once

// Time windows in the analyzer (Spark's TimeWindowing): window(ts, windowDuration[,
// slideDuration[, startTime]]) anywhere in a projection or an aggregation becomes the `window`
// column of a Generate below it, which emits each row once per window that holds its timestamp
// (one for tumbling windows, up to ceil(window / slide) for sliding ones; none for a NULL
// timestamp).

#include <cstdint>
#include <string>

namespace ember::plan {

/// A window, slide or start duration in microseconds, from Spark's interval text ("10 minutes",
/// "1 hour 30 minutes", "interval 5 seconds"). Months and years are refused, as windows have a
/// fixed length; text that is no interval is CANNOT_PARSE_INTERVAL.
int64_t parse_window_duration(const std::string& text);

}  // namespace ember::plan
