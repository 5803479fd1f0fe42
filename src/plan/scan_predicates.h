#pragma once

#include <vector>

#include "io/data_source.h"
#include "plan/expression.h"

namespace ember::plan {

/// The conjuncts of a filter condition directly over a scan that a data source can test
/// against split metadata: `column <op> literal` (either side), `isnull(column)`,
/// `isnotnull(column)`. `scan_output` is the scan's attributes, in schema order. Other
/// conjuncts are left out; the filter still runs in full above the scan.
std::vector<io::ScanPredicate> scan_predicates(const ExprPtr& condition,
                                               const std::vector<ExprPtr>& scan_output);

}  // namespace ember::plan
