#pragma once

#include <string>
#include <vector>

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

/// Translates an optimized logical plan into physical operators: binds attributes to column
/// ordinals, prunes unused columns down to the scans, fuses sort+limit into top-N.
PhysicalPlan create_physical_plan(const PlanPtr& plan, Session& session);

}  // namespace ember::plan
