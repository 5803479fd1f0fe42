#pragma once

// Python function calls cannot run inside the engine's expression evaluator: as Spark's
// ExtractPythonUDFs does, physical planning moves them into PythonEval operators under the
// projection or filter that calls them, and the calls become references to the operators'
// result columns.

#include <vector>

#include "exec/python_udf.h"
#include "plan/physical_planner.h"

namespace ember::plan {

bool contains_python_udf(const ExprPtr& e);

/// The settings a Python worker reads (PySpark's RunnerConf): the session's time zone and batch
/// size, and whatever Arrow / pandas conversion settings the session changed; the interpreter
/// from spark.pyspark.python.
exec::PythonSettings python_settings(const Config& conf);

/// Rewrites `exprs` (over `c.output`) so that no Python call remains, stacking PythonEval
/// operators on `c`: each evaluates the calls whose arguments hold no Python call (so nested
/// calls take one operator per level), one operator per eval type, and appends one column per
/// call to `c.output`. Returns `exprs` unchanged when they call no Python function.
std::vector<ExprPtr> extract_python_udfs(const std::vector<ExprPtr>& exprs, PhysicalPlan& c, const Config& conf);

}  // namespace ember::plan
