#pragma once

// Evaluation of higher-order function calls (transform, filter, aggregate, ...): their lambda
// arguments become functions::LambdaFunction objects that the function's kernel calls over
// many bindings at once.

#include "exec/expression.h"

namespace ember::exec {

/// Whether the call `e` has lambda arguments (array_sort is a higher-order call only with one).
bool is_higher_order_call(const PhysExpr& e);

/// Evaluates a higher-order call over `batch`: its other arguments are evaluated as usual and
/// its lambdas are handed to the function's higher-order kernel.
ColumnPtr evaluate_higher_order(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx);

}  // namespace ember::exec
