#pragma once

#include "plan/logical_plan.h"

namespace ember::plan {

/// Spark's check that input_file_name(), input_file_block_start() and input_file_block_length()
/// have one file source to report: an operator using one of them may not sit above a node
/// (a join) whose inputs read files on more than one side; a union counts as one source.
/// Throws MULTI_SOURCES_UNSUPPORTED_FOR_EXPRESSION.
void check_input_file_sources(const PlanPtr& plan);

}  // namespace ember::plan
