#pragma once

// Higher-order functions in the analyzer: binding a call's lambda arguments to the parameters
// the function passes them (array elements, map keys and values, indexes, accumulators),
// resolving lambda bodies with those variables in scope, and Spark's errors for lambdas that do
// not fit (INVALID_LAMBDA_FUNCTION_CALL.*).

#include <functional>
#include <string>
#include <vector>

#include "common/config.h"
#include "plan/expression.h"

namespace ember::plan {

/// The lambda variables in scope while a lambda body resolves, innermost lambda last.
using LambdaScopes = std::vector<std::vector<ExprPtr>>;

/// The innermost lambda variable called `name`, or null. Lambda variables shadow columns of
/// the same name; columns stay visible under other names.
ExprPtr find_lambda_variable(const LambdaScopes& scopes, const std::string& name, bool case_sensitive);

/// Whether the unresolved call `call` resolves here: it names a higher-order function and has
/// arguments in lambda positions, or it passes a lambda to any function (an error).
bool is_higher_order_call(const ExprPtr& call);

/// Resolves a higher-order call. `resolve(e, params)` resolves an argument (params empty) or a
/// lambda body with the lambda's resolved variables `params` in scope; `finish(args)` resolves
/// the call over its resolved arguments as any other call (the function's type rule).
ExprPtr resolve_higher_order_call(const ExprPtr& call,
                                  const std::function<ExprPtr(const ExprPtr&, const std::vector<ExprPtr>&)>& resolve,
                                  const std::function<ExprPtr(std::vector<ExprPtr>)>& finish, const Config& conf);

}  // namespace ember::plan
