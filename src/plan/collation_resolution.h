#pragma once

#include <string>
#include <vector>

#include "functions/function.h"
#include "plan/expression.h"

namespace ember::plan {

/// Spark's collation coercion for one call (types/collation.h): the collation its STRING
/// arguments are read in, or -1 when no argument has one to give. Collations have strengths:
/// a `collate` call is explicit, any other string expression implicit (UTF8_BINARY columns
/// too), a string literal the default. The explicit collations of the arguments must agree
/// (else COLLATION_MISMATCH.EXPLICIT), and without them the implicit ones (else the collation
/// is indeterminate: INDETERMINATE_COLLATION_IN_EXPRESSION naming `call_sql`); literals take
/// the collation of the others.
int call_collation(const functions::FunctionDef& def, const std::vector<ExprPtr>& args, const std::string& call_sql);

/// Gives the call's signature the collation `collation_id` (call_collation's answer): its
/// STRING arguments are read in it, and the result of a function that returns its input's
/// text (upper, substring, concat, min, ...) carries it.
void apply_call_collation(const functions::FunctionDef& def, int collation_id, const std::vector<ExprPtr>& args,
                          functions::Signature& sig);

/// `collationkey(e)` for a string of a collation other than UTF8_BINARY: bytes whose byte order
/// and equality are the collation's. Any other expression is returned as it is.
ExprPtr collation_key(const ExprPtr& e);

/// call_signature for evaluating a scalar call: type rules see strings without their collation,
/// and the arguments get theirs back, as the analyzer gives them (apply_call_collation), so that
/// kernels learn the collation from their argument types (functions/collation_search.h).
functions::Signature scalar_call_signature(const functions::FunctionDef& def,
                                           const std::vector<ExprPtr>& args, const Config& conf);

}  // namespace ember::plan
