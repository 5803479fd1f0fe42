#pragma once

#include <string>
#include <vector>

#include "exec/expression.h"
#include "exec/operator.h"
#include "plan/logical_plan.h"
#include "plan/session.h"

namespace ember::plan {

/// A physical operator tree and the attributes its output columns hold, in order.
struct PhysicalPlan {
  exec::OperatorPtr root;
  std::vector<ExprPtr> output;
  /// GPU placement report for explain (plan/gpu_placement.h), per spark.rapids.sql.explain.
  std::vector<std::string> gpu_explain;
};

/// Binds a resolved expression over the attributes of an operator's input: attributes become
/// column ordinals.
exec::PhysExprPtr bind_expr(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf);

/// Translates an optimized logical plan into physical operators: binds attributes to column
/// ordinals, prunes unused columns down to the scans, fuses sort+limit into top-N.
PhysicalPlan create_physical_plan(const PlanPtr& plan, Session& session);

}  // namespace ember::plan
