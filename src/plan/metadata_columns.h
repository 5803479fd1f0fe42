#pragma once

// Hidden metadata columns (Spark's metadata output): a file read's `_metadata` struct
// (io/file_metadata.h). A resolved read keeps its metadata attribute in `exprs`, out of its
// output; a reference that names no column of an operator's input but one of the metadata
// columns reachable below it (through the operators that pass their input's rows on) resolves
// to it, and the analyzer then widens the plan so that the read outputs the attribute and the
// operators in between pass it up. `*` and `df.columns` never show it; a query that does not
// reference it reads exactly what it read before.

#include <string>
#include <utility>
#include <vector>

#include "plan/logical_plan.h"

namespace ember::plan {

/// The metadata attribute of a read of `format` whose data columns are `columns` (a fresh id),
/// or null when the format has none. Where a data column takes the name `_metadata` (in any
/// case), the attribute's name gets more leading underscores until it is free, as in Spark.
ExprPtr file_metadata_attribute(const std::string& format, const std::vector<ExprPtr>& columns);

/// The metadata attributes of the reads below `p` that reach it through operators passing their
/// input's rows on (filters, sorts, limits, samples, repartitions, hints, windows, generators,
/// aliases — qualified by the alias — and projections), whether or not an operator already
/// outputs them. A temporary view (an alias naming a view: `table_name` set) passes none on,
/// as Spark's View node does.
std::vector<ExprPtr> reachable_metadata(const PlanPtr& p);

/// The metadata attributes `p` exposes: reachable_metadata(p) less those already in its output.
std::vector<ExprPtr> metadata_output(const PlanPtr& p);

/// `p` rebuilt so that its output also has `attrs` (some of metadata_output(p)): the reads
/// output them and the operators in between pass them up (projections add them to their
/// list). Null when one of them is not reachable.
PlanPtr with_metadata_output(const PlanPtr& p, const std::vector<ExprPtr>& attrs);

/// `resolved`, an operator just resolved over inputs among which the nodes of `needed` hold
/// references to their metadata attributes, with each such node widened by them
/// (with_metadata_output) and the nodes between it and `resolved` passing them on. When that
/// changes `resolved`'s own output, a projection on top restores it (the metadata column stays
/// hidden above). Null when a node of `needed` cannot give them.
PlanPtr with_needed_metadata(const PlanPtr& resolved,
                             const std::vector<std::pair<const PlanNode*, ExprPtr>>& needed);

/// The reference of `df.metadataColumn(name)`: an unresolved attribute that resolves only to a
/// metadata column of the DataFrame `plan_id`.
ExprPtr metadata_column_reference(std::vector<std::string> name_parts, int64_t plan_id);
bool is_metadata_column_reference(const Expr& e);

}  // namespace ember::plan
