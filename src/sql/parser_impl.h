#pragma once

// The recursive-descent parser shared by the parse_*.cc files: one class, split by the part of
// the grammar each file reads (queries, relations, expressions, literals, commands).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plan/expression.h"
#include "plan/logical_plan.h"
#include "sql/lexer.h"
#include "sql/parser.h"
#include "sql/statement.h"

namespace ember::sql {

using plan::ExprPtr;
using plan::PlanPtr;

/// A window specification: `(PARTITION BY ... ORDER BY ... frame)`, possibly based on a named
/// window.
struct WindowSpec {
  std::string base;  // the named window this one refines, if any
  std::vector<ExprPtr> partition_by;
  std::vector<ExprPtr> order_by;
  plan::WindowFrame frame;
};

/// A select item as written: the expression (without its alias), the alias if any, and where
/// it stands in the text (for positioned errors).
struct SelectItem {
  ExprPtr expr;
  std::optional<std::string> alias;
  int begin = 0, stop = 0;
};

/// A GROUP BY / ORDER BY key as written; a bare integer literal is a position (`ordinal`).
struct ClauseKey {
  ExprPtr expr;
  bool is_ordinal = false;
  int ordinal = 0;
  int begin = 0, stop = 0;
};

/// The clauses of one SELECT before they become plan nodes. ORDER BY belongs to the query
/// around it, but a lone SELECT's ORDER BY may see its aggregates and FROM columns, so the two
/// are assembled together (`build_select`).
struct SelectClause {
  bool distinct = false;
  std::vector<SelectItem> items;
  PlanPtr from;  // null: the one-row relation
  ExprPtr where;
  bool has_group_by = false, group_by_all = false;
  std::vector<ClauseKey> group_by;
  /// GROUP BY ROLLUP / CUBE / GROUPING SETS: the sets, as indices into `group_by`; empty for a
  /// plain GROUP BY.
  std::vector<std::vector<size_t>> grouping_sets;
  ExprPtr having;
  std::map<std::string, WindowSpec> windows;  // WINDOW clause, by lower-case name
  /// QUALIFY: a condition over the select list's window functions (and the FROM columns),
  /// filtering after they are computed and before DISTINCT; with its position for errors.
  ExprPtr qualify;
  int qualify_begin = 0, qualify_stop = 0;
};

/// ORDER BY / SORT BY / CLUSTER BY / DISTRIBUTE BY, LIMIT and OFFSET of a query.
struct QueryOrganization {
  std::vector<ClauseKey> order_by;  // sort orders (kSortOrder around the key)
  bool global_sort = true;          // false for SORT BY / CLUSTER BY
  bool distribute = false;
  std::optional<int64_t> limit, offset;
  int limit_begin = 0, limit_stop = 0, offset_begin = 0, offset_stop = 0;
};

class Parser {
 public:
  Parser(std::string_view sql, const ParseOptions& options);

  PlanPtr whole_query();
  ExprPtr whole_expression();
  Statement whole_statement();

  // --- Tokens ---------------------------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool at_word(std::string_view kw, size_t ahead = 0) const { return peek(ahead).is_word(kw); }
  bool at_op(std::string_view op, size_t ahead = 0) const { return peek(ahead).is_op(op); }
  bool accept_word(std::string_view kw);
  bool accept_op(std::string_view op);
  void expect_word(std::string_view kw);
  void expect_op(std::string_view op);
  bool at_end_of_statement(size_t ahead = 0) const;
  /// Fails unless the statement ends here (`;` optional).
  void expect_end();
  [[noreturn]] void fail(const Token& at, const std::string& hint = "") const;
  [[noreturn]] void fail_here() const { fail(peek()); }
  /// PARSE_EMPTY_STATEMENT for blank text.
  void reject_empty() const;
  /// Raises a positioned error over tokens [from, to].
  [[noreturn]] void fail_range(ErrorKind kind, const std::string& error_class,
                               const std::string& message,
                               std::map<std::string, std::string> params, int begin,
                               int stop) const;
  int last_stop() const { return pos_ > 0 ? toks_[pos_ - 1].stop : 0; }
  /// `e` marked as read from bytes [begin, last_stop()] of the statement, for errors' query
  /// context (an expression already marked keeps its place).
  ExprPtr located(ExprPtr e, int begin) const;
  /// The statement's text, shared by every origin the parser records.
  std::shared_ptr<const std::string> text_;
  std::string_view text(int begin, int stop) const;

  // --- Identifiers ----------------------------------------------------------------------------
  bool at_identifier(size_t ahead = 0) const;
  std::string identifier();
  std::vector<std::string> multipart_identifier();
  std::vector<std::string> identifier_list();  // (a, b, c)

  // --- Queries (parse_query.cc) ----------------------------------------------------------------
  PlanPtr query();
  bool at_query_start(size_t ahead = 0) const;

  // --- Relations (parse_relation.cc) -----------------------------------------------------------
  PlanPtr from_clause();
  PlanPtr relation();
  PlanPtr relation_primary();
  PlanPtr lateral_view(PlanPtr rel);
  /// An argument of a table-valued function call: `TABLE(t)`, `TABLE(query)` with their
  /// partitioning, `name => TABLE(...)`, or an ordinary function argument.
  ExprPtr table_function_argument();
  ExprPtr table_argument();
  /// `f(args)` as a Generate over `rel`; `table_function`: the arguments of a LATERAL table
  /// function call (TABLE arguments, keywords), else a LATERAL VIEW generator's expressions.
  PlanPtr generator_call(PlanPtr rel, bool outer, bool table_function = false);
  bool at_lateral_function_call();
  PlanPtr lateral_function_call(PlanPtr rel);
  /// VALUES rows; `aliased` (in FROM) also reads the table's alias and column names.
  PlanPtr inline_table(bool aliased = false);
  PlanPtr table_alias(PlanPtr rel, bool allow_column_list);
  // PIVOT, UNPIVOT and TABLESAMPLE (parse_pivot.cc), each over the relation before it.
  PlanPtr pivot_clause(PlanPtr rel);
  PlanPtr unpivot_clause(PlanPtr rel);
  PlanPtr table_sample(PlanPtr rel);
  bool at_pivot_clause() const {
    return (at_word("PIVOT") && at_op("(", 1)) ||
           (at_word("UNPIVOT") && (at_op("(", 1) || at_word("INCLUDE", 1) || at_word("EXCLUDE", 1)));
  }

  // --- Expressions (parse_expression.cc) -------------------------------------------------------
  ExprPtr expression();
  /// One sort item: expression [ASC | DESC] [NULLS FIRST | NULLS LAST] (nulls first when
  /// ascending unless said), as a sort order.
  ExprPtr sort_item();
  ExprPtr named_expression(std::optional<std::string>* alias_out);
  std::vector<ExprPtr> expression_list_in_parens();
  WindowSpec window_spec();
  /// Whether a word at an alias position is an alias rather than the clause keyword it spells.
  bool word_is_alias(size_t ahead, bool for_table) const;

  // --- Literals and types (parse_literal.cc) ---------------------------------------------------
  ExprPtr number_literal(bool negate, const Token* minus);
  ExprPtr typed_literal();  // DATE '...', TIMESTAMP '...', X'..', INTERVAL ...
  bool at_typed_literal() const;
  ExprPtr interval_literal();
  TypePtr data_type();
  ExprPtr parameter_marker();
  /// A constant integer (LIMIT, OFFSET, window frame offsets).
  int64_t constant_integer(const ExprPtr& e, const char* what, int begin, int stop) const;
  /// An integer literal, or integer arithmetic over them, as the parser folds it; false for
  /// anything else.
  static bool fold_integer(const ExprPtr& e, int64_t* v);

  // --- Statements (parse_statement.cc) ---------------------------------------------------------
  Statement statement();
  /// OPTIONS (key value, ...) of a data source: `path` into the paths, the rest into options.
  void options_list(io::ReadRequest& read);
  // Table and database statements (parse_table_statement.cc); each starts after its leading
  // keywords (CREATE [OR REPLACE], INSERT, ...) and fills `s`.
  Statement create_table(Statement s);
  Statement create_namespace(Statement s);
  Statement drop_namespace(Statement s);
  Statement insert(Statement s);
  /// (a INT [NOT NULL] [COMMENT '...'], ...) of CREATE TABLE.
  Schema column_definitions();

  const ParseOptions& options() const { return options_; }
  std::string_view sql() const { return sql_; }

  /// Common table expressions in scope, innermost last.
  std::vector<std::map<std::string, PlanPtr>> cte_scopes;
  /// Lambda parameters in scope (`x -> x + 1`): references become lambda variables.
  std::vector<std::vector<std::string>> lambda_scopes;

 private:
  // Expression precedence levels.
  ExprPtr or_expression();
  ExprPtr and_expression();
  ExprPtr not_expression();
  ExprPtr predicated();
  ExprPtr comparison();
  ExprPtr bit_or();
  ExprPtr bit_xor();
  ExprPtr bit_and();
  ExprPtr shift();
  ExprPtr additive();
  ExprPtr multiplicative();
  ExprPtr unary();
  ExprPtr postfix(ExprPtr primary_expr = nullptr);
  ExprPtr primary();
  ExprPtr function_call(std::vector<std::string> name, int begin);
  ExprPtr case_expression();
  ExprPtr cast_expression(bool try_cast);
  ExprPtr over_clause(ExprPtr function);
  ExprPtr lambda_or_expression();
  /// An argument of a function call: an expression, a lambda, or a named one (`name => expr`).
  ExprPtr function_argument();
  ExprPtr identifier_reference(std::vector<std::string> parts);
  /// Reads one frame boundary; returns whether it was written as `N PRECEDING`.
  bool frame_bound(int64_t* bound, bool lower);

  // Queries.
  struct Term {
    PlanPtr plan;
    std::optional<SelectClause> select;
    /// Output column names where the text shows them (for ORDER BY ordinals over set
    /// operations); empty when unknown.
    std::vector<std::string> names;
  };
  Term set_expression();
  Term set_term();
  Term set_primary();
  SelectClause select_clause(PlanPtr from_first);
  void with_clause();
  QueryOrganization query_organization();
  PlanPtr finish(Term term, QueryOrganization& org);
  PlanPtr to_plan(Term term);

  std::string_view sql_;
  ParseOptions options_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  size_t next_positional_ = 0;
};

/// Assembles a SELECT and the ORDER BY that follows it into plan nodes (parse_select.cc).
PlanPtr build_select(const Parser& p, SelectClause select, QueryOrganization* org);
/// Replaces `OVER w` references with the windows of the WINDOW clause (parse_select.cc).
ExprPtr apply_named_windows(const Parser& p, const ExprPtr& e,
                            const std::map<std::string, WindowSpec>& windows);
/// The relation of a SELECT without FROM: one row, no columns a name can read (Spark's
/// OneRowRelation).
PlanPtr one_row_relation();
/// The single-partition range of one row that VALUES rows are projections over.
PlanPtr one_row_range();

// Plan node helpers.
std::shared_ptr<plan::PlanNode> new_node(plan::PlanKind kind, std::vector<PlanPtr> children = {});
ExprPtr string_literal(const std::string& s);
ExprPtr int_literal(int32_t v);
/// Whether `name` is an aggregate function of the registry.
bool is_aggregate_function(const std::string& name);
/// Whether `e` contains an aggregate function call outside any window expression.
bool contains_aggregate_call(const ExprPtr& e);

}  // namespace ember::sql
