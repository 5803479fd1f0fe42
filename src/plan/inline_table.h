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

}  // namespace ember::plan
