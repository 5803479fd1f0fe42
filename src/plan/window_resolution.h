#pragma once

// Window expressions in the analyzer: the window-only functions (ranking, lag/lead,
// first/last/nth_value), Spark's default and required frames, the checks of a window
// specification, and the extraction of window expressions into Window plan nodes.

#include <string>
#include <vector>

#include "plan/logical_plan.h"

namespace ember::plan {

/// Whether `lower_name` names a window-only function (row_number, rank, lag, nth_value, ...).
/// Aggregate functions are window functions too but resolve through the function registry.
bool is_window_function_name(const std::string& lower_name);

/// Resolves a call of a window-only function over resolved arguments: checks the arguments,
/// normalizes them (lag/lead always carry offset and default, as Spark shows them) and sets the
/// result type and nullability. `called` is the name as written (first_value vs first).
ExprPtr resolve_window_function(const std::string& called, std::vector<ExprPtr> args, bool ignore_nulls);

/// Builds a resolved window expression from its resolved function and specification: applies
/// the frame the function requires or Spark's default frame, and raises Spark's errors for
/// invalid combinations (ranking without ORDER BY, RANGE offsets over several keys, ...).
ExprPtr resolve_window(ExprPtr function, std::vector<ExprPtr> partition_by, std::vector<ExprPtr> order_by,
                       WindowFrame frame);

/// Whether a resolved expression contains a window expression.
bool contains_window(const ExprPtr& e);

/// Moves the window expressions of the named expressions `named` into Window nodes stacked over
/// `child` (one node per distinct PARTITION BY / ORDER BY), and rewrites `named` to read their
/// output attributes. Returns the new child; `named` is unchanged when it has no windows.
PlanPtr extract_windows(const PlanPtr& child, std::vector<ExprPtr>& named);

}  // namespace ember::plan
