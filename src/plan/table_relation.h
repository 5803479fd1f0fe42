#pragma once

#include "io/data_source.h"
#include "plan/logical_plan.h"
#include "plan/table_catalog.h"

namespace ember::plan {

/// The read request of a table's data: its provider over its directory, with the table's
/// schema (so an empty table reads as no rows, and partition columns keep their types) and
/// its options.
io::ReadRequest table_read_request(const TableInfo& table);

/// An unresolved Read of a table's data; the analyzer resolves it like spark.read....load().
PlanPtr table_read_plan(const TableInfo& table);

}  // namespace ember::plan
