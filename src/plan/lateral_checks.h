#pragma once

// Spark's checks of LATERAL subqueries (its ValidateSubqueryExpression): a subquery joined
// laterally runs once for each row of the relation before it, so Spark accepts one that is not
// deterministic only beside a relation of one row at most, and never a join condition that is
// not deterministic.

#include "plan/logical_plan.h"

namespace ember::plan {

/// Whether every expression of the plan, its subqueries' plans included, is deterministic.
bool plan_deterministic(const PlanPtr& plan);

/// Whether the subquery, below its aliases, projections and hints, is a Python table function
/// call over one row without columns: Spark's exception to the rule above (such a call runs
/// once per row of the relation anyway).
bool is_python_table_function_over_one_row(const PlanPtr& subquery);

/// UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES when
/// `subquery` is not deterministic, `outer` may give more than one row and the exception above
/// does not apply; `shown` is the join Spark names in the message.
void check_lateral_subquery(const PlanPtr& outer, const PlanPtr& subquery, const PlanPtr& shown);

/// UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.LATERAL_JOIN_CONDITION_NON_DETERMINISTIC for a
/// lateral join's condition that is not deterministic (null: none).
void check_lateral_join_condition(const ExprPtr& condition);

}  // namespace ember::plan
