#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"
#include "io/data_source.h"
#include "plan/expression.h"

namespace ember::plan {

enum class PlanKind {
  // Leaves.
  kRange,          // range_start, range_end, range_step
  kLocalRelation,  // schema + batches; or the rows of a cached plan (`cached`)
  kRead,           // read (data source request)
  kUnresolvedRelation,  // table/view name parts
  kEmpty,          // no rows, given schema (output)
  // Unary.
  kProject,        // exprs = named expressions
  kFilter,         // condition
  kAggregate,      // grouping = exprs, aggregates = named outputs
  kSort,           // exprs = sort orders; is_global
  kLimit,          // limit; not is_global: Spark's LocalLimit (any `limit` rows of the input will do)
  kOffset,         // limit = offset
  kTail,           // limit
  kDistinct,       // all columns; or dedup_columns for dropDuplicates(subset)
  kSubqueryAlias,  // alias
  kSample,         // lower, upper, with_replacement, seed
  kToDF,           // names
  kWithColumns,    // exprs = aliases to add/replace (unresolved helper)
  kWithColumnsRenamed,  // renames
  kDrop,           // exprs = columns to drop (or names)
  kRepartition,    // num_partitions, exprs, shuffle, by_range, rebalance; no-op for the result
  kHint,           // unresolved: names[0] = hint name, exprs = parameters; resolved: a join
                   // strategy (hint_strategy)
  // Binary and n-ary.
  kJoin,           // join_type, condition, using_columns (natural: using the common columns)
  kSetOp,          // set_op, is_all, by_name, allow_missing
  // Window functions (created by the analyzer): exprs = aliases of kWindow expressions that
  // share one PARTITION BY / ORDER BY; output = the child's output followed by theirs.
  kWindow,
  // A generator (plan/generator_resolution.h): exprs[0] = the kGenerator expression;
  // output = the child's output followed by `generator_output`. Unresolved (SQL's LATERAL VIEW):
  // exprs[0] the call, `names` the column aliases, `alias` the table alias.
  kGenerate,
  // mapInPandas / mapInArrow: exprs[0] = the kPythonUdf whose arguments are every column of the
  // child; output = the fields of its struct return type, new attributes.
  kMapPartitions,
  // groupBy().applyInPandas: exprs[0] = the kPythonUdf (its arguments: every column of the
  // child), exprs[1..] = the grouping expressions; output as kMapPartitions.
  kFlatMapGroups,
  // cogroup().applyInPandas: children = the two sides; exprs[0] = the kPythonUdf (the analyzer
  // sets its arguments to every column of the left side, then of the right), exprs[1..] = the
  // left side's grouping expressions, then as many of the right side's; output as kMapPartitions.
  kCoGroupMap,
  // Unresolved only; the analyzer rewrites them into aggregates and generators
  // (plan/pivot_resolution.h).
  kPivot,    // exprs = grouping (DataFrame API) unless pivot_group_by_rest; aggregates;
             // pivot_columns; pivot_values (none: the column's distinct values)
  kUnpivot,  // exprs = ids (unpivot_ids_given); unpivot_values; names = value column names;
             // alias = variable column name; unpivot_include_nulls
};

/// kExistence (Spark's ExistenceJoin) keeps every left row and adds a boolean column, `exprs[0]`:
/// whether a right row matched. The optimizer creates it for EXISTS / IN used as values.
enum class JoinType { kInner, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti, kCross, kExistence };
enum class SetOpType { kUnion, kIntersect, kExcept };

struct PlanNode;
struct CachedData;
using PlanPtr = std::shared_ptr<const PlanNode>;

/// A logical plan node. Built unresolved by the client front ends (connect/, sql/), then
/// resolved by the analyzer (which fills `output`), then rewritten by the optimizer. Nodes are
/// immutable once shared.
struct PlanNode {
  PlanKind kind;
  std::vector<PlanPtr> children;
  int64_t plan_id = -1;  // the client's id, for df["col"] resolution

  std::vector<ExprPtr> exprs;
  std::vector<ExprPtr> aggregates;
  ExprPtr condition;
  /// Aggregate: the output is exactly `aggregates` (SQL's select list), instead of the
  /// DataFrame API's grouping expressions followed by `aggregates`.
  bool aggregate_output_is_select_list = false;
  /// Aggregate with ROLLUP / CUBE / GROUPING SETS: each set lists expressions of `exprs`
  /// (unresolved, matched to `exprs` by the analyzer); empty for a plain GROUP BY.
  std::vector<std::vector<ExprPtr>> grouping_sets;

  // Range.
  int64_t range_start = 0, range_end = 0, range_step = 1;
  int num_partitions = 0;
  // Repartition: `num_partitions` (0: not given) and `exprs`, the partitioning expressions
  // (sort orders when by range). Coalesce does not shuffle; a rebalance (Spark's
  // RebalancePartitions, from the REBALANCE hint) evens out partition sizes.
  bool shuffle = true;
  bool by_range = false;
  bool rebalance = false;
  /// repartitionById: the one expression is each row's partition itself (taken modulo the
  /// partition count; a null goes to partition 0), Spark's DirectShufflePartitionID.
  bool by_partition_id = false;
  /// Repartition by the hash of `exprs` into as many partitions as the engine runs tasks at
  /// once, fewer when the rows are few: a TABLE argument's PARTITION BY, whose partitions each
  /// run as one Python task.
  bool task_partitions = false;
  // Resolved hint: Spark's name of the join strategy ("broadcast", "merge", ...).
  std::string hint_strategy;
  // Local relation.
  Schema schema;
  std::vector<Batch> batches;
  /// The rows of a checkpointed DataFrame, which plans show as Spark shows a checkpoint's RDD.
  bool checkpointed = false;
  /// Spark's InMemoryRelation: the rows of a cached plan (plan/cache_manager.h), which the
  /// cache manager puts where a query reads a subplan equal to it. `batches` stay empty; the
  /// first scan computes the entry's rows.
  std::shared_ptr<const CachedData> cached;
  // Read / unresolved relation.
  io::ReadRequest read;
  std::shared_ptr<const io::DataSourceReader> reader;  // opened by the analyzer
  std::vector<std::string> table_name;
  // Limit / offset / tail.
  int64_t limit = 0;
  // Sort (sortWithinPartitions: not global); Limit (LocalLimit: not global).
  bool is_global = true;
  // Distinct (dropDuplicates subset).
  std::vector<std::string> dedup_columns;
  bool dedup_all = true;
  // Alias, rename.
  std::string alias;
  std::vector<std::string> names;
  std::vector<std::pair<std::string, std::string>> renames;
  // Sample.
  double lower = 0, upper = 1;
  bool with_replacement = false;
  int64_t seed = 0;
  /// randomSplit: the input is sorted first, so that every split draws over the same rows.
  bool sample_sorted_input = false;
  // Join.
  JoinType join_type = JoinType::kInner;
  std::vector<std::string> using_columns;
  bool natural = false;
  /// LATERAL: the right side is a subquery that reads the left side's columns. A Generate so
  /// marked is a `LATERAL f(...)` call over the relation before it, a Filter the ON condition of
  /// one: Spark checks them as a lateral join's subquery and condition.
  bool lateral = false;
  /// Where the parser read a relation name (UnresolvedRelation), for errors' query context.
  SqlOrigin origin;
  /// A LEFT OUTER join that stands for a scalar subquery: a left row may match one right row.
  bool single_match = false;
  // Set operations.
  SetOpType set_op = SetOpType::kUnion;
  bool is_all = false, by_name = false, allow_missing = false;

  // Pivot: one value per entry, a literal (a struct of literals for several pivot columns),
  // wrapped in kAlias when the value has a name.
  std::vector<ExprPtr> pivot_columns;
  std::vector<ExprPtr> pivot_values;
  /// SQL's PIVOT groups by every input column that neither the pivot nor an aggregate uses.
  bool pivot_group_by_rest = false;
  // Unpivot: each entry a set of columns (one per value column); `unpivot_aliases` names
  // the sets (empty string: derived from the columns).
  std::vector<std::vector<ExprPtr>> unpivot_values;
  std::vector<std::string> unpivot_aliases;
  bool unpivot_ids_given = true;
  bool unpivot_values_given = true;
  bool unpivot_include_nulls = true;

  // Generate: the attributes of the generator's columns (nullable when the generator is outer).
  std::vector<ExprPtr> generator_output;
  /// Unresolved Generate of SQL's table-valued function call (`FROM f(...)`, `LATERAL f(...)`):
  /// a name that is no generator nor table function is UNRESOLVABLE_TABLE_VALUED_FUNCTION.
  bool table_function_call = false;

  /// VALUES as the parser built it, a UNION ALL of one-row projections: the analyzer evaluates
  /// it (plan/inline_table.h). `inline_value_origins`: where each value was written, row by row.
  bool inline_table = false;
  std::vector<SqlOrigin> inline_value_origins;

  /// Output attributes (kAttribute expressions), set once resolved.
  std::vector<ExprPtr> output;
  bool resolved = false;

  Schema output_schema() const;
};

// Factories used by the front ends; each returns an unresolved node.
PlanPtr make_node(PlanKind kind, std::vector<PlanPtr> children = {});
/// The Range node of the `range` table function's integer arguments (end; start, end; start,
/// end, step; start, end, step, partitions); FAILED_FUNCTION_CALL for a zero step.
std::shared_ptr<PlanNode> range_function_node(const std::vector<int64_t>& args);
std::string join_type_name(JoinType t);

/// An expression as Spark's plans show it, attributes with their ids (`array(id#0, 1)`).
std::string expr_with_ids(const ExprPtr& e);

/// Renders a plan tree the way Spark's `treeString` does (`+- ` and `:- ` prefixes).
std::string plan_tree_string(const PlanPtr& plan);

}  // namespace ember::plan
