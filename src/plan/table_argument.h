#pragma once

// TABLE arguments of table function calls (Spark's FunctionTableSubqueryArgumentExpression):
// `f(TABLE(t) PARTITION BY k ORDER BY v)` in SQL, `f(df.asTable().partitionBy("k"))` in the
// DataFrame API. The table's rows reach the function one struct (a PySpark Row) at a time; the
// relation that delivers them partitions and orders them as the call, or the function's
// `analyze` method, asks.

#include <functional>
#include <string>
#include <vector>

#include "exec/python_udf.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// Whether `e` is a TABLE argument (a kSubquery of kind kTableArgument).
bool is_table_argument(const ExprPtr& e);

/// UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_TABLE_ARGUMENT: a TABLE argument where
/// no table function takes it.
[[noreturn]] void throw_unsupported_table_argument(const PlanPtr& table);
/// TABLE_VALUED_FUNCTION_TOO_MANY_TABLE_ARGUMENTS.
[[noreturn]] void throw_too_many_table_arguments(size_t count);

/// Whether `p` is the one row without columns that a FROM-clause table function call reads.
bool is_one_row_without_columns(const PlanPtr& p);
/// That row, resolved.
PlanPtr one_row_without_columns();

/// The struct of a relation's columns, the type of its TABLE argument.
TypePtr table_struct_type(const std::vector<ExprPtr>& output);

/// The expression a table function's `analyze` method names in a PartitioningColumn,
/// OrderingColumn or SelectedColumn: Spark parses it as SQL (`v`, `v % 2`, `upper(s)`). The SQL
/// front end installs its parser (`install_analyze_expression_parser`); without one the text is
/// a column name (`a`, `s.x`, `` `a.b` ``).
ExprPtr parse_analyze_expression(const std::string& text);
void install_analyze_expression_parser(std::function<ExprPtr(const std::string&)> parse);

/// A resolved TABLE argument: the table, its PARTITION BY expressions, ORDER BY sort orders,
/// WITH SINGLE PARTITION, and the columns `analyze` selected (expression, alias or empty).
struct TableArgument {
  PlanPtr table;
  std::vector<ExprPtr> partition_by;
  std::vector<ExprPtr> order_by;
  bool with_single_partition = false;
  std::vector<std::pair<ExprPtr, std::string>> selected;
};

/// Applies what the function `function`'s `analyze` method asked of its TABLE argument
/// (partitioning, ordering, selected columns), as Spark's PythonUDTFAnalyzeResult does; names
/// resolve against the table through `resolve_name`. TABLE_VALUED_FUNCTION_REQUIRED_METADATA_*
/// errors for requests that contradict each other or the call.
void apply_table_function_analysis(const exec::TableFunctionAnalysis& analysis,
                                   const std::string& function, TableArgument& arg,
                                   const std::function<ExprPtr(const std::string&)>& resolve_name);

/// The relation that hands a TABLE argument's rows to its function: one column, the struct of
/// the rows (`c`). With PARTITION BY, the rows hash-distributed by the partitioning values
/// (projected as `partition_by_<i>` columns after the table's) over as many tasks as the engine
/// runs at once, and each task's rows sorted by those values, then the ORDER BY items; each
/// task's worker tells partitions apart by comparing the values on consecutive rows
/// (`partition_child_indexes`, fields of the struct). WITH SINGLE PARTITION: every row in one
/// task, sorted by ORDER BY. `make_struct` resolves named_struct over its arguments.
struct TableArgumentInput {
  PlanPtr plan;
  std::vector<int> partition_child_indexes;
};
TableArgumentInput table_argument_input(
    const TableArgument& arg, const std::function<ExprPtr(std::vector<ExprPtr>)>& make_struct);

}  // namespace ember::plan
