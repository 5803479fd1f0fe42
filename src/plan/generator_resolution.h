#pragma once

// Generators in the analyzer (Spark's explode family: explode, posexplode, inline, stack and
// their `_outer` forms): their argument checks and output columns, where a query may use them,
// and the extraction of a select list's generators into Generate plan nodes.

#include <string>
#include <vector>

#include "exec/python_udf.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// Whether `lower_name` names a generator function (explode, explode_outer, inline, stack ...).
bool is_generator_name(const std::string& lower_name);
/// Whether `lower_name` names a generator Spark offers only as a table-valued function
/// (variant_explode, variant_explode_outer): in FROM and LATERAL, not in a select list.
bool is_table_only_generator_name(const std::string& lower_name);

/// Resolves a call of the generator `called` (lower case, `_outer` form included) over resolved
/// arguments: checks their types as Spark does (DATATYPE_MISMATCH.*) and gives the kGenerator
/// expression the struct of its output columns. `outer` also comes from SQL's LATERAL VIEW OUTER.
ExprPtr resolve_generator(const std::string& called, std::vector<ExprPtr> args, bool outer);

/// Whether `e` is a Python table function (udtf) as a generator: a kGenerator holding the
/// client's pickled class in `python`.
bool is_python_table_function(const ExprPtr& e);

/// A call of the Python table function `function` (its generator without arguments, from the
/// client or the session's registry) over resolved arguments; `names` holds each argument's
/// keyword (empty: positional; may be shorter). The generator's struct type is the function's
/// return type, or, for a function registered without one, the schema its `analyze` static
/// method returns for these arguments (run in a Python worker now, as Spark's analyzer does).
/// `table_args` marks the TABLE arguments (their type: the struct of the table's columns), which
/// `analyze` sees as such; `analysis`, when given, receives what `analyze` returned (left as is
/// for a function with a return type).
ExprPtr resolve_python_table_function(const ExprPtr& function, std::vector<ExprPtr> args,
                                      const std::vector<std::string>& names, const Config& conf,
                                      const std::vector<bool>& table_args = {},
                                      exec::TableFunctionAnalysis* analysis = nullptr);

/// The generator of a select-list entry: the entry itself or the child of its alias; null when
/// the entry is not a generator.
ExprPtr top_level_generator(const ExprPtr& named);

/// UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS for `expr`, an expression holding a generator.
[[noreturn]] void throw_generator_nested(const std::string& expr);
/// UNSUPPORTED_GENERATOR.OUTSIDE_SELECT: a generator where `clause` does not allow one.
[[noreturn]] void throw_generator_outside_select(const std::string& clause);

/// A resolved Generate node over `child`: the generator's columns get fresh attributes named
/// `names` (Spark's defaults when empty; UDTF_ALIAS_NUMBER_MISMATCH for a wrong count) and
/// qualified by `qualifier` when not empty.
PlanPtr generate_node(const PlanPtr& child, const ExprPtr& generator, const std::vector<std::string>& names,
                      const std::string& qualifier);

/// Moves the generators of the select list `named` into Generate nodes stacked over `child`
/// (the first generator lowest, so its rows vary slowest, as in Spark), and replaces each
/// generator entry by the attributes of its columns. Returns the new child; `named` is unchanged
/// when it has no generator.
PlanPtr extract_generators(const PlanPtr& child, std::vector<ExprPtr>& named);

}  // namespace ember::plan
