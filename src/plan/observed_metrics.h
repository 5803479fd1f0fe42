#pragma once

#include "plan/expression.h"

namespace ember::plan {

/// Checks one metric of `DataFrame.observe` (an unresolved expression, alias included) against
/// Spark's rules for observed metrics: aggregates, not nested, without DISTINCT or FILTER;
/// columns, and nondeterministic calls, only inside an aggregate; no window. Throws the
/// AnalysisException `INVALID_OBSERVED_METRICS.<reason>` (SQLSTATE 42K0E) for the first
/// violation. The aggregate a metric forms is then analyzed as any other
/// (Analyzer::check_aggregate and the rest).
void check_observed_metric(const Expr& metric);

}  // namespace ember::plan
