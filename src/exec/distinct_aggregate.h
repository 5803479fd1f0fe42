#pragma once

#include <memory>
#include <vector>

#include "functions/function.h"

namespace ember::exec {

/// An aggregate over the distinct rows of its arguments (count(DISTINCT a, b), sum(DISTINCT x)).
/// Its state owns the set of distinct argument rows, encoded as grouping keys (nulls equal, NaN
/// equal to NaN); states merge by set union, and `finalize` decodes each set into columns and
/// runs the wrapped aggregate over them once.
std::unique_ptr<functions::AggregateFunction> make_distinct_aggregate(
    std::unique_ptr<functions::AggregateFunction> inner, std::vector<TypePtr> arg_types);

}  // namespace ember::exec
