#pragma once

// `+`, `-`, `*` and `/` over dates, timestamps and ANSI intervals, as Spark's analyzer rewrites them:
//   date ± tinyint/smallint/int       date_add / date_sub
//   date ± INTERVAL DAY               date_add(d, [-]extractansiintervaldays(i))
//   date ± other day-time interval    the date as a timestamp, then as below
//   timestamp[_ntz] ± day-time        exact microseconds
//   date / timestamp ± year-month     months added (the day clamped to the month's end)
//   interval ± interval (same kind)   an interval with the fields of both
//   date - date                       INTERVAL DAY;  timestamp - timestamp: INTERVAL DAY TO SECOND
//   interval + date/timestamp         as date/timestamp + interval
//   calendar interval (`interval`)    ± date, timestamp or calendar interval; * and / by a
//                                     number (multiply_interval, divide_interval)
// The internal functions it calls live in functions/datetime_operators.cc.

#include <functional>
#include <string>
#include <vector>

#include "plan/expression.h"

namespace ember::functions {
struct FunctionDef;
}

namespace ember::plan {

/// How the analyzer binds what the rewrite produces.
struct DatetimeArithmeticBinder {
  /// A call of a public function by name, its arguments resolved.
  std::function<ExprPtr(const std::string& name, std::vector<ExprPtr> args)> call;
  /// A call of an internal function.
  std::function<ExprPtr(const functions::FunctionDef* def, std::vector<ExprPtr> args)> call_internal;
  /// An implicit cast.
  std::function<ExprPtr(ExprPtr e, TypePtr type)> cast;
};

/// The rewritten expression, or nullptr when neither operand is a datetime or an interval (the
/// operator is then numeric).
ExprPtr rewrite_datetime_arithmetic(const std::string& op, const std::vector<ExprPtr>& args,
                                    const DatetimeArithmeticBinder& bind);

}  // namespace ember::plan
