#pragma once

// Aggregates ordered within their group, `f(...) WITHIN GROUP (ORDER BY k [ASC | DESC]
// [NULLS FIRST | LAST], ...)`, in the analyzer: listagg and string_agg take such an order and
// become the internal listagg_ordered (functions/aggregates_string.cc); other functions refuse
// it, as Spark does. (percentile_cont / percentile_disc read theirs in the parser.)

#include <string>
#include <vector>

#include "plan/expression.h"

namespace ember::plan {

/// Whether the function `name` (canonical) takes WITHIN GROUP (ORDER BY ...) as listagg does.
bool takes_order_within_group(const std::string& name);

/// INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX for `called` with WITHIN GROUP.
[[noreturn]] void throw_within_group_unsupported(const std::string& called);

/// The arguments of listagg_ordered for a listagg call's resolved arguments (the value and
/// maybe a delimiter: one or two) and its resolved WITHIN GROUP keys (kSortOrder nodes): the value, the
/// delimiter (NULL when absent), the keys' order and the keys. Keys must be orderable
/// (DATATYPE_MISMATCH.INVALID_ORDERING_TYPE).
std::vector<ExprPtr> ordered_listagg_args(std::vector<ExprPtr> args, const std::vector<ExprPtr>& keys);

/// Spark's rule for DISTINCT with WITHIN GROUP on a resolved listagg_ordered call: one key, the
/// value itself or the value before its cast to STRING / BINARY
/// (INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT); through a cast, not from a
/// type whose text is not one per value (INVALID_WITHIN_GROUP_EXPRESSION
/// .MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST: FLOAT, DOUBLE, TIMESTAMP).
void check_within_group_distinct(const Expr& call);

}  // namespace ember::plan
