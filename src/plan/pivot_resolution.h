#pragma once

#include <functional>
#include <vector>

#include "column/column.h"
#include "common/config.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// What the pivot and unpivot rewrites need of the analyzer.
struct RelationResolver {
  /// Resolves an unresolved node whose leaves may already be resolved plans.
  std::function<PlanPtr(const PlanPtr&)> resolve_plan;
  /// Resolves a select list against `child`: named expressions, Spark's automatic names.
  std::function<std::vector<ExprPtr>(const std::vector<ExprPtr>&, const PlanPtr&, bool allow_agg)> resolve_named;
  std::function<ExprPtr(const ExprPtr&, const PlanPtr&, bool allow_agg)> resolve_expr;
  /// Runs an analyzed plan (the distinct values of a pivot column given no values).
  std::function<std::vector<Batch>(const PlanPtr&)> run;
  const Config* conf = nullptr;
};

/// A kPivot node over the resolved `child` as aggregates (see the .cc for the plan's shape).
PlanPtr resolve_pivot(const PlanNode& p, const PlanPtr& child, const RelationResolver& r);

/// A kUnpivot node over the resolved `child`: ids, the variable column and the value columns.
PlanPtr resolve_unpivot(const PlanNode& p, const PlanPtr& child, const RelationResolver& r);

}  // namespace ember::plan
