#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "column/value.h"
#include "common/error.h"
#include "types/data_type.h"

namespace ember {
class Config;
namespace exec {
struct PythonFunction;
}
namespace functions {
struct FunctionDef;
struct Signature;
}

namespace plan {

/// Kinds of expression nodes. Unresolved kinds come from the client (DataFrame API or SQL);
/// the analyzer replaces every one of them with resolved kinds, whose `type` and `nullable` are
/// set. Attributes are identified by `expr_id`, never by name, once resolved.
enum class ExprKind {
  // Unresolved.
  kUnresolvedAttribute,  // name_parts; plan_id when it came from df["col"]
  kUnresolvedStar,       // name_parts = qualifier (empty for *); plan_id for df["*"];
                         // name = the column-name regex of df.colRegex (empty otherwise)
  kUnresolvedFunction,   // name, children, distinct
  kUnresolvedExtract,    // children[0] = value, children[1] = key/field/index
  kUnresolvedAlias,      // children[0], name chosen by the analyzer (Spark's auto-naming)
  // Lambdas (plan/lambda_resolution.h): resolved once the analyzer binds them to a
  // higher-order function, a variable gaining expr_id, type and nullable.
  kLambdaVariable,       // name
  kLambda,               // children[0] = body, children[1..] = variables
  // Both.
  kLiteral,    // value, type
  kAlias,      // children[0], name (a new attribute with expr_id)
  kCast,       // children[0], type; try_cast when `try_`
  kSortOrder,  // children[0], ascending, nulls_first
  // Resolved.
  kAttribute,     // name, qualifier, expr_id, type, nullable
  kCall,          // function (scalar), children
  kAggregate,     // function (aggregate), children, distinct; filter in `filter`
  kCaseWhen,      // children = [cond1, val1, cond2, val2, ..., (else)]; has_else
  kIf,            // children = [cond, then, else]
  kCoalesce,      // children
  kGetField,      // children[0] = struct, ordinal
  kWindow,        // children[0] = window function; partition_by, order_by, frame
  kWindowFunction,  // name (row_number, rank, lag, nth_value, ...), children; ignore_nulls
  // Subqueries (plan/subquery.h): `subquery` holds the query's plan (unresolved from the front
  // ends, resolved by the analyzer); children are the outer values an IN subquery tests.
  kSubquery,         // subquery_kind, subquery
  kOuterReference,   // children[0] = an attribute of the query `ordinal` levels up, seen from a subquery
  // A generator (explode, posexplode, inline, stack; plan/generator_resolution.h): name = the
  // generator without `_outer`, children = its arguments, `outer`; `type` is the struct of the
  // columns it produces per input row. Only a select list or a Generate node may hold one.
  kGenerator,
  // A Python user-defined function (udf, pandas_udf): `python` holds the pickled function and
  // its eval type, children its arguments, `type` its return type. Physical planning moves
  // each into a PythonEval operator below the projection or filter that calls it.
  kPythonUdf,
  // An argument passed by name (`f(a => x)`, a Python call's keyword argument): name = the
  // parameter, children[0] = the value. Only Python functions take them (their calls keep the
  // names in `python->arg_names`); elsewhere the analyzer rejects them.
  kNamedArgument,
};

/// What a subquery expression asks of its query's rows.
enum class SubqueryKind {
  kScalar,  // (SELECT x ...): the one value of its one row, null with no rows
  kExists,  // EXISTS (SELECT ...)
  kIn,      // (a, b) IN (SELECT x, y ...): children are a, b
  /// A TABLE argument of a table function call (`f(TABLE(t) PARTITION BY k ORDER BY v)`,
  /// `f(df.asTable())`): `partition_by`, `order_by` (kSortOrder nodes) and
  /// `with_single_partition` say how its rows reach the function (plan/table_argument.h).
  kTableArgument,
};

struct PlanNode;

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// Window frame of a window expression.
struct WindowFrame {
  enum class Type { kRows, kRange } type = Type::kRange;
  // Bounds: INT64_MIN = unbounded preceding, INT64_MAX = unbounded following, 0 = current row.
  int64_t lower = INT64_MIN;
  int64_t upper = 0;
  bool specified = false;
  /// How an offset bound was written, which is how Spark names the column: SQL's `2 PRECEDING`
  /// renders as written, an API offset (rowsBetween(-2, 0)) as `-2 FOLLOWING`.
  bool lower_preceding_syntax = false;
  bool upper_preceding_syntax = false;
  /// Offsets shown as values even when 0 (lag/lead's frame: `0 FOLLOWING`).
  bool value_bounds = false;

  static constexpr int64_t kUnboundedPreceding = INT64_MIN;
  static constexpr int64_t kUnboundedFollowing = INT64_MAX;
  bool lower_unbounded() const { return lower == kUnboundedPreceding; }
  bool upper_unbounded() const { return upper == kUnboundedFollowing; }
  /// Spark's text of the frame: `ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`.
  std::string to_string() const;
};

/// One node of an expression tree. Nodes are immutable once shared; rewrites build new nodes.
struct Expr {
  ExprKind kind;
  std::vector<ExprPtr> children;

  std::string name;                     // attribute / alias / function name
  std::vector<std::string> name_parts;  // unresolved attribute parts, star target
  std::vector<std::string> qualifier;   // resolved attribute's relation qualifier
  Value value;                          // literal value
  TypePtr type;                         // resolved type; cast target
  bool nullable = true;
  int64_t expr_id = -1;                 // attribute / alias identity
  int64_t plan_id = -1;                 // client plan id for df["col"] references
  bool distinct = false;                // aggregate DISTINCT
  bool try_ = false;                    // try_cast
  bool implicit = false;                // cast inserted by type coercion (not in names)
  bool ascending = true;                // sort order
  bool nulls_first = true;              // sort order
  bool has_else = false;                // CASE WHEN
  bool ignore_nulls = false;            // window functions (lag, lead, first, last, nth_value)
  bool outer = false;                   // generators: one row of nulls for a null or empty input
  int ordinal = -1;                     // struct field ordinal
  const functions::FunctionDef* function = nullptr;  // resolved function
  ExprPtr filter;                       // aggregate FILTER (WHERE ...)
  std::vector<ExprPtr> partition_by;    // window; TABLE argument
  std::vector<ExprPtr> order_by;        // window (kSortOrder nodes); TABLE argument
  bool with_single_partition = false;   // TABLE argument: WITH SINGLE PARTITION
  WindowFrame frame;                    // window
  std::string metadata_json;            // alias metadata
  /// How names show an expression rewritten by the analyzer into others (IN into ORs,
  /// BETWEEN into comparisons): Spark's name of the original. Empty: rendered from the tree.
  std::string display;
  /// kSubquery: the query (a `PlanNode`; shared, immutable) and how its rows are used.
  std::shared_ptr<const PlanNode> subquery;
  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  /// kPythonUdf: the function as the client sent it.
  std::shared_ptr<const exec::PythonFunction> python;
  /// Where the parser read the expression, for errors' query context.
  SqlOrigin origin;

  /// Spark's rendering of the expression in plans and auto-generated column names
  /// (`(a + 1)`, `sum(x)`, `CAST(a AS INT)`).
  std::string to_string() const;
  bool resolved() const;
  bool deterministic() const;
  bool contains_aggregate() const;
};

/// A group aggregate pandas UDF call (pandas_udf of PandasUDFType.GROUPED_AGG): an aggregate
/// whose groups a Python worker reduces (AggregateInPandas; over a window, WindowInPandas).
bool is_python_aggregate(const Expr& e);

/// A fresh expression id (process-wide, monotonic).
int64_t new_expr_id();

// Factories.
ExprPtr lit(Value v, TypePtr type);
ExprPtr col(std::vector<std::string> name_parts, int64_t plan_id = -1);
ExprPtr star(std::vector<std::string> target = {}, int64_t plan_id = -1);
ExprPtr call(std::string name, std::vector<ExprPtr> args, bool distinct = false);
ExprPtr alias(ExprPtr child, std::string name, int64_t expr_id = -1);
ExprPtr cast(ExprPtr child, TypePtr type, bool try_cast = false);
ExprPtr sort_order(ExprPtr child, bool ascending, bool nulls_first);
/// An unresolved subquery expression over `query` (IN: `values` are the tested values).
ExprPtr subquery(SubqueryKind kind, std::shared_ptr<const PlanNode> query, std::vector<ExprPtr> values = {});
ExprPtr attribute(std::string name, TypePtr type, bool nullable, int64_t expr_id,
                  std::vector<std::string> qualifier = {});
/// A copy of `e` with new children.
ExprPtr with_children(const ExprPtr& e, std::vector<ExprPtr> children);
/// The output attribute of a named expression (an alias or an attribute).
ExprPtr to_attribute(const ExprPtr& named);
/// The signature of `def` called on resolved `args`: its type rule given their types, or its
/// argument rule given their types, nullability and literal values.
functions::Signature call_signature(const functions::FunctionDef& def, const std::vector<ExprPtr>& args,
                                    const Config& conf);
/// Splits a dotted column name as Spark does, honouring backquotes: "a.`b.c`" → [a, b.c].
/// Throws PARSE_SYNTAX_ERROR-style errors on malformed quoting.
std::vector<std::string> parse_attribute_name(const std::string& name);

}  // namespace plan
}  // namespace ember
