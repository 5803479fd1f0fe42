#pragma once

// Named arguments of built-in functions (`mask(s, digitChar => 'D')`), put in their positional
// order before the call resolves, as Spark's rearrangement by function signature does
// (functions::FunctionDef::parameters declares a function's parameters).

#include <vector>

#include "plan/expression.h"

namespace ember::plan {

/// Whether some argument of a call is a named one (kNamedArgument).
bool has_named_arguments(const std::vector<ExprPtr>& args);

/// The unresolved call `call` (of a built-in function, with named arguments) with its arguments
/// in positional order: the positional ones, then the named ones at their parameters'
/// positions, an optional parameter skipped before a given one filled with its default, none
/// after the last given one. Spark's errors: NAMED_PARAMETERS_NOT_SUPPORTED for a function
/// without named parameters, UNEXPECTED_POSITIONAL_ARGUMENT, UNRECOGNIZED_PARAMETER_NAME (with
/// the three closest names), DUPLICATE_ROUTINE_PARAMETER_ASSIGNMENT and
/// REQUIRED_PARAMETER_NOT_FOUND.
ExprPtr with_positional_arguments(const ExprPtr& call);

}  // namespace ember::plan
