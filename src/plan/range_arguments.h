#pragma once

// SQL's `range(...)` table function with arguments the parser cannot fold itself
// (`range(abs(-3))`, `range('3')`, `range(rand())`, `range(TABLE(t))`).

#include <functional>
#include <memory>
#include <vector>

#include "common/config.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// The Range node of `args` (end; start, end; start, end, step; start, end, step, numSlices),
/// as Spark's Range takes them: each argument, resolved by `resolve`, must fold to a constant
/// (NON_FOLDABLE_ARGUMENT names the parameter it stands for; a TABLE argument never does), then
/// is cast to BIGINT (numSlices: INT) with the cast's own errors; a null or a value of a type
/// that does not cast is UNEXPECTED_INPUT_TYPE.
std::shared_ptr<PlanNode> range_from_arguments(
    const std::vector<ExprPtr>& args, const std::function<ExprPtr(const ExprPtr&)>& resolve,
    const Config& conf);

}  // namespace ember::plan
