#pragma once

// Spark Connect column references by DataFrame: `df["col"]` and `df["*"]` carry the plan id of
// the DataFrame they were taken from. The analyzer resolves them against the plan node with
// that id, wherever it sits below the operator being resolved, so that a self-join tells the
// two sides apart even when they share column names and attribute ids.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// Resolves a name against a node's output: the attribute and how many name parts it consumed
/// (the rest are struct fields), or nullopt. May throw a SparkError (an ambiguous name), which
/// the plan-id search treats as "not resolved here" and returns in PlanIdResult::error.
using OutputMatcher = std::function<std::optional<std::pair<ExprPtr, size_t>>(const std::vector<ExprPtr>& output)>;

struct PlanIdResult {
  /// The attribute found at a node with the plan id and the name parts it consumed; empty when
  /// the node was found but the name did not resolve there (the caller then resolves by name).
  std::optional<std::pair<ExprPtr, size_t>> match;
  /// Whether a node with the plan id exists below the roots at all.
  bool plan_found = false;
  /// The error the name raised at the node (an ambiguous name), when it did not resolve there.
  std::optional<SparkError> error;
};

/// Spark's resolution of a DataFrame column: searches each root (the inputs of the operator)
/// top-down for nodes with `plan_id`, resolves the name at the first one on each path, and keeps
/// a result only while it stays in the output of every node above it. A result found at a root
/// itself beats deeper ones; any other tie is AMBIGUOUS_COLUMN_REFERENCE. A union is not
/// searched below. `shown` is the reference as Spark prints it in errors.
PlanIdResult resolve_by_plan_id(const std::vector<PlanPtr>& roots, int64_t plan_id, const OutputMatcher& match,
                                const std::string& shown);

/// `df["*"]`: the output of the node with `plan_id`, when all of it reaches the roots' output.
/// Errors: AMBIGUOUS_COLUMN_REFERENCE when several nodes qualify, CANNOT_RESOLVE_DATAFRAME_COLUMN
/// when none does.
std::vector<ExprPtr> expand_star_by_plan_id(const std::vector<PlanPtr>& roots, int64_t plan_id,
                                            const std::string& shown);

[[noreturn]] void throw_cannot_resolve_dataframe_column(const std::string& shown);
[[noreturn]] void throw_ambiguous_column_reference(const std::string& shown);

}  // namespace ember::plan
