#pragma once

// What the arithmetic family shares with calendar_interval.cc: the interval forms of `*`, `/`,
// try_multiply and try_divide.

#include <optional>
#include <vector>

#include "common/timezone.h"
#include "functions/function.h"

namespace ember::functions {

/// How an interval operation treats a field that leaves its range: Spark's ANSI error, its
/// legacy saturation (non-ANSI), or NULL (the try_ functions).
enum class IntervalOverflow { kError, kSaturate, kNull };

/// The signature of multiply_interval (either argument the interval) or divide_interval (the
/// interval first): the number is cast to DOUBLE; the result is nullable. Nullopt when no
/// argument is a calendar interval.
std::optional<Signature> interval_scale_signature(const std::vector<TypePtr>& args, bool divide,
                                                  const char* op_sql);

/// multiply_interval / divide_interval over arguments cast to interval_scale_signature's types.
/// Division by zero is INTERVAL_DIVIDED_BY_ZERO under kError and NULL otherwise.
ColumnPtr interval_scale(const std::vector<ColumnPtr>& args, int64_t n, const Signature& sig, bool divide,
                         IntervalOverflow mode);

/// The internal function behind `+` or `-` (`subtract`) of a calendar interval and a date, a
/// timestamp or another calendar interval, in its try_ form (NULL on overflow) or not; with
/// `*swap` set when it takes the operands the other way round (interval + date). nullptr when
/// the operands are not such a pair.
const FunctionDef* calendar_interval_operator(const TypePtr& left, const TypePtr& right, bool subtract,
                                              bool try_form, bool* swap);

/// Spark's timestampAddInterval: `ts` moved by `months` and `days` as a local date-time in `tz`
/// (LocalDateTime.plusMonths(m).plusDays(d), a local time in a gap moved forward, one in an
/// overlap taking the earlier offset; `tz` null reads `ts` as a local time itself, for
/// TIMESTAMP_NTZ and for dates), then by `micros` as an instant. False on overflow.
bool timestamp_add_interval(int64_t ts, int32_t months, int32_t days, int64_t micros, const TimeZone* tz,
                            int64_t* out);

}  // namespace ember::functions
