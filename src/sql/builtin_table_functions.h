#pragma once

// The built-in table-valued functions whose rows need no input: sql_keywords() (Spark's SQL
// keywords and whether each is reserved) and collations() (the collations Ember supports, as
// Spark describes its own). SQL's `FROM f()` and the DataFrame API's spark.tvf.f() both become
// the same local relation.

#include <string>

#include "plan/logical_plan.h"

namespace ember::sql {

/// The relation of the call `name(...)` with `num_args` arguments when `name` (any case) is
/// sql_keywords or collations, else null. `enforce_reserved_keywords` is whether the session
/// enforces ANSI's reserved words (spark.sql.ansi.enabled and
/// spark.sql.ansi.enforceReservedKeywords), which sql_keywords() reports. Arguments fail with
/// WRONG_NUM_ARGS, as in Spark.
std::shared_ptr<plan::PlanNode> builtin_table_function(const std::string& name, size_t num_args,
                                                       bool enforce_reserved_keywords);

}  // namespace ember::sql
