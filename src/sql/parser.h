#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/config.h"
#include "plan/logical_plan.h"
#include "sql/statement.h"

namespace ember::sql {

/// Values of the parameter markers of a query, as `spark.sql(query, args=...)` sends them:
/// `:name` markers take `named`, `?` markers take `positional` in order. Values are
/// expressions (usually literals) substituted where the marker stands.
struct Parameters {
  std::map<std::string, plan::ExprPtr> named;
  std::vector<plan::ExprPtr> positional;
  bool empty() const { return named.empty() && positional.empty(); }
};

/// Settings that change how text is read.
struct ParseOptions {
  /// Zone of TIMESTAMP literals that name none (spark.sql.session.timeZone).
  std::string time_zone = "UTC";
  /// spark.sql.ansi.doubleQuotedIdentifiers: "x" is an identifier instead of a string.
  bool double_quoted_identifiers = false;
  /// spark.sql.ansi.enforceReservedKeywords in ANSI mode: what sql_keywords() reports as reserved.
  bool enforce_reserved_keywords = false;
  Parameters parameters;
  /// When set, returns the output columns of an unresolved relation as (qualifier, name)
  /// pairs. The parser asks only where the text alone cannot tell: an ORDER BY position that
  /// falls within a `*` of the select list.
  std::function<std::vector<std::pair<std::string, std::string>>(const plan::PlanPtr&)>
      relation_columns;
  /// Relations the text names as tables, visible like common table expressions of the whole
  /// statement (a query's own WITH shadows them), by lower-case name: the DataFrames that
  /// `spark.sql("... {df} ...", df=df)` passes.
  std::map<std::string, plan::PlanPtr> relations;

  /// The options a session's configuration implies (parameters left empty).
  static ParseOptions from_config(const Config& config);
  /// from_config, plus `relation_columns` answered by analyzing with the session.
  static ParseOptions for_session(plan::Session& session);
};

/// Parses a query (SELECT ..., VALUES ..., WITH ..., TABLE t, FROM t SELECT ...) into the
/// unresolved plan the DataFrame API would build for it. Raises ParseException-style
/// SparkErrors (PARSE_SYNTAX_ERROR ...) positioned in the text.
plan::PlanPtr parse_query(std::string_view sql, const ParseOptions& options = {});

/// Parses one expression, optionally named (`a + 1 AS b`): what `expr()`, `selectExpr()` and
/// `filter("...")` send.
plan::ExprPtr parse_expression(std::string_view sql, const ParseOptions& options = {});

/// Parses a whole statement: a query or a command (SET, CREATE VIEW, SHOW TABLES, EXPLAIN ...).
Statement parse_statement(std::string_view sql, const ParseOptions& options = {});

/// Splits a script into statements on `;` outside quotes, back quotes and comments. Empty
/// statements are dropped; each statement keeps its own text without the `;`.
std::vector<std::string> split_statements(std::string_view script);

}  // namespace ember::sql
