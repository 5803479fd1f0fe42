#pragma once

#include "common/config.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// A resolved VALUES (`PlanNode::inline_table`): the UNION ALL of one-row projections the
/// parser built, once the analyzer has typed the columns. When every value folds to a literal,
/// the rows become a local relation of one batch (as Spark's analyzer evaluates an inline
/// table), which one thread runs in order as one partition: aggregates see the rows in order,
/// and functions that number rows see partition 0 and consecutive positions, as Spark's
/// projections evaluated over a local relation do. The output attributes are kept. A row that
/// does not fold (rand(), an error left for execution) leaves the plan as it is.
PlanPtr evaluate_inline_table(const PlanPtr& resolved, const Config& conf);

/// Whether `p` is one of the parser's UNION ALLs joining the rows of a VALUES.
bool is_values_union(const PlanNode& p);

/// Raises INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE, placed at the value,
/// for the first value of the resolved `rows` (one-row projections, in order) of inline table
/// `table` that cannot be evaluated once.
void check_inline_table_values(const std::vector<PlanPtr>& rows, const PlanNode& table);

/// The type of each column of inline table `table` whose resolved rows are `rows`: the wider
/// type of its values without string promotion, as Spark's findWiderTypeWithoutStringPromotion
/// finds it in either ANSI mode; INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE when
/// there is none.
std::vector<TypePtr> inline_table_types(const std::vector<PlanPtr>& rows, const PlanNode& table);

}  // namespace ember::plan
