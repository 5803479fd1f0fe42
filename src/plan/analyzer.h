#pragma once

#include "plan/logical_plan.h"
#include "plan/session.h"

namespace ember::plan {

/// Resolves an unresolved plan: names to attributes, functions to definitions, implicit casts,
/// star expansion, and the DataFrame conveniences (withColumns, drop, toDF ...) into core
/// nodes. Raises Spark's analysis errors.
PlanPtr analyze_plan(const PlanPtr& unresolved, Session& session);

/// Resolves one expression against the output attributes of `child` (used by the analyzer and
/// by front ends that resolve ad-hoc expressions).
ExprPtr resolve_expression(const ExprPtr& e, const PlanPtr& child, Session& session,
                           bool allow_aggregates);

/// A structural key of a resolved expression: equal keys mean semantically equal expressions
/// (aliases ignored, attributes by id).
std::string semantic_key(const ExprPtr& e);

}  // namespace ember::plan
