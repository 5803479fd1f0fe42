// Relations of the FROM clause: tables and views, common table expressions, subqueries,
// inline tables (VALUES), the range() and generator table functions, joins, and LATERAL VIEW.

#include <algorithm>
#include <cctype>

#include "common/ascii.h"
#include "plan/generator_resolution.h"
#include "plan/table_argument.h"
#include "sql/builtin_table_functions.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::ExprKind;
using plan::JoinType;
using plan::PlanKind;

namespace {

PlanPtr subquery_alias(PlanPtr child, const std::string& alias) {
  auto n = new_node(PlanKind::kSubqueryAlias, {std::move(child)});
  n->alias = alias;
  return n;
}

}  // namespace

PlanPtr one_row_range() {
  auto n = new_node(PlanKind::kRange);
  n->range_start = 0;
  n->range_end = 1;
  n->range_step = 1;
  // Spark runs its one row as a single partition: rand, spark_partition_id and
  // monotonically_increasing_id see partition 0, whatever the default parallelism.
  n->num_partitions = 1;
  return n;
}

PlanPtr one_row_relation() {
  // Spark's OneRowRelation has no columns: a name in the select list never reads the range's
  // `id` (in a subquery it reads the enclosing query instead).
  return new_node(PlanKind::kProject, {one_row_range()});
}

PlanPtr Parser::from_clause() {
  PlanPtr rel = relation();
  while (accept_op(",")) {
    if (at_lateral_function_call()) {
      // `t, LATERAL explode(t.arr) [AS] alias[(c1, ...)]`, or a table function: a Generate over
      // what precedes.
      next();
      rel = lateral_function_call(rel);
      continue;
    }
    // `t, LATERAL (subquery) alias`: the subquery reads the columns of what precedes.
    const bool lateral = at_word("LATERAL") && at_op("(", 1) && at_query_start(2);
    if (lateral) next();
    auto join = new_node(PlanKind::kJoin, {rel, lateral ? relation_primary() : relation()});
    join->join_type = JoinType::kInner;
    join->lateral = lateral;
    rel = join;
  }
  while (at_word("LATERAL") && at_word("VIEW", 1)) rel = lateral_view(rel);
  while (at_pivot_clause()) rel = at_word("PIVOT") ? pivot_clause(rel) : unpivot_clause(rel);
  return rel;
}

bool Parser::at_lateral_function_call() {
  return at_word("LATERAL") && peek(1).kind == TokenKind::kWord && !peek(1).is_word("VIEW") &&
         (at_op("(", 2) || (at_op(".", 2) && peek(3).kind == TokenKind::kWord && at_op("(", 4)));
}

/// After LATERAL: `f(args) [AS] alias[(c1, ...)]`, a generator or table function whose
/// arguments read the columns of `rel`, as a Generate over it.
PlanPtr Parser::lateral_function_call(PlanPtr rel) {
  const int begin = peek().begin;
  auto g = std::const_pointer_cast<plan::PlanNode>(generator_call(std::move(rel), false, true));
  g->lateral = true;
  if (!plan::is_generator_name(ascii_lower(g->exprs[0]->name))) {
    g->table_function_call = true;
    g->origin = SqlOrigin{text_, begin, last_stop()};
  }
  if (accept_word("AS") || word_is_alias(0, true)) {
    g->alias = identifier();
    if (at_op("(")) g->names = identifier_list();
  }
  return g;
}

/// LATERAL VIEW [OUTER] generator(args) table [AS] column, ...: a Generate over the relation
/// so far, which keeps its columns.
PlanPtr Parser::lateral_view(PlanPtr rel) {
  next();
  next();
  bool outer = accept_word("OUTER");
  auto gen = std::const_pointer_cast<plan::PlanNode>(generator_call(std::move(rel), outer));
  if (!at_word("AS") && word_is_alias(0, true)) gen->alias = identifier();
  if (accept_word("AS") || word_is_alias(0, true)) {
    do {
      gen->names.push_back(identifier());
    } while (accept_op(","));
  }
  return gen;
}

/// `f(args)` as an unresolved Generate node over `rel`.
PlanPtr Parser::generator_call(PlanPtr rel, bool outer, bool table_function) {
  std::vector<std::string> name = multipart_identifier();
  expect_op("(");
  std::vector<ExprPtr> args;
  if (!at_op(")")) {
    do {
      args.push_back(table_function ? table_function_argument() : expression());
    } while (accept_op(","));
  }
  expect_op(")");
  auto call = std::make_shared<plan::Expr>(*plan::call(name.back(), std::move(args)));
  call->outer = outer;
  auto gen = new_node(PlanKind::kGenerate, {std::move(rel)});
  gen->exprs = {call};
  return gen;
}

PlanPtr Parser::relation() {
  PlanPtr left = relation_primary();
  while (true) {
    if (at_pivot_clause()) {
      left = at_word("PIVOT") ? pivot_clause(left) : unpivot_clause(left);
      continue;
    }
    size_t k = 0;
    bool natural = false;
    if (at_word("NATURAL")) {
      natural = true;
      k = 1;
    }
    JoinType type = JoinType::kInner;
    const Token& t = peek(k);
    if (t.is_word("JOIN")) {
      k += 1;
    } else if (t.is_word("INNER") && peek(k + 1).is_word("JOIN")) {
      k += 2;
    } else if (t.is_word("CROSS") && peek(k + 1).is_word("JOIN")) {
      type = JoinType::kCross;
      k += 2;
    } else if (t.is_word("LEFT") || t.is_word("RIGHT") || t.is_word("FULL")) {
      const Token& m = peek(k + 1);
      type = t.upper == "LEFT"
                 ? JoinType::kLeftOuter
                 : (t.upper == "RIGHT" ? JoinType::kRightOuter : JoinType::kFullOuter);
      if (m.is_word("OUTER")) {
        k += 2;
      } else if (t.upper == "LEFT" && (m.is_word("SEMI") || m.is_word("ANTI"))) {
        type = m.upper == "SEMI" ? JoinType::kLeftSemi : JoinType::kLeftAnti;
        k += 2;
      } else {
        k += 1;
      }
      if (!peek(k).is_word("JOIN")) {
        pos_ += k;
        fail_here();
      }
      k += 1;
    } else if ((t.is_word("SEMI") || t.is_word("ANTI")) && peek(k + 1).is_word("JOIN")) {
      type = t.upper == "SEMI" ? JoinType::kLeftSemi : JoinType::kLeftAnti;
      k += 2;
    } else {
      if (natural) fail(peek(1));
      return left;
    }
    pos_ += k;
    if (at_lateral_function_call() && (type == JoinType::kInner || type == JoinType::kCross) && !natural) {
      // `t JOIN LATERAL f(t.a) [alias] [ON cond]`: the function's rows for each row of t.
      next();
      left = lateral_function_call(left);
      if (accept_word("ON")) {
        auto filter = new_node(PlanKind::kFilter, {left});
        filter->condition = expression();
        filter->lateral = true;
        left = filter;
      }
      continue;
    }
    if (at_lateral_function_call() && type == JoinType::kLeftOuter && !natural) {
      // `t LEFT JOIN LATERAL f(t.a) [alias] ON cond`: every row of t, with the function's rows
      // that meet the condition or nulls; the analyzer decorrelates the function's rows.
      next();
      auto one_row = new_node(PlanKind::kLocalRelation);
      one_row->batches.push_back(Batch({}, 1));
      auto join = new_node(PlanKind::kJoin, {left, lateral_function_call(one_row)});
      join->join_type = type;
      join->lateral = true;
      if (accept_word("ON")) join->condition = expression();
      left = join;
      continue;
    }
    const bool lateral = at_word("LATERAL");
    if (lateral) {
      if (!at_op("(", 1) || !at_query_start(2))
        fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                   "The feature is not supported: LATERAL " + peek(1).text + " in a JOIN.", {},
                   peek().begin, peek().stop);
      next();
    }
    auto join = new_node(PlanKind::kJoin, {left, relation_primary()});
    join->join_type = type;
    join->natural = natural;
    join->lateral = lateral;
    if (natural) {
      // NATURAL JOIN: USING the columns both sides have; no ON / USING of its own.
    } else if (accept_word("ON")) {
      join->condition = expression();
    } else if (at_word("USING")) {
      next();
      join->using_columns = identifier_list();
    }
    left = join;
  }
}

PlanPtr Parser::relation_primary() {
  const Token& t = peek();
  if (t.is_op("(")) {
    if (at_query_start(1)) {
      next();
      PlanPtr q = query();
      expect_op(")");
      if (at_word("TABLESAMPLE") && at_op("(", 1)) q = table_sample(q);
      PlanPtr aliased = table_alias(q, true);
      // A subquery without an alias gets Spark's generated name.
      if (aliased == q) return subquery_alias(q, "__auto_generated_subquery_name");
      return aliased;
    }
    next();
    PlanPtr inner = relation();
    while (accept_op(",")) {
      auto join = new_node(PlanKind::kJoin, {inner, relation()});
      inner = join;
    }
    expect_op(")");
    if (at_word("TABLESAMPLE") && at_op("(", 1)) inner = table_sample(inner);
    return table_alias(inner, true);
  }
  if (t.is_word("VALUES")) return inline_table(true);
  if (t.is_word("LATERAL"))
    fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
               "The feature is not supported: LATERAL subqueries.", {}, t.begin, t.stop);
  if (!at_identifier()) fail_here();
  int begin = t.begin;
  std::vector<std::string> name = multipart_identifier();
  if (at_op("(")) {
    // A table-valued function.
    std::string fname = ascii_lower(name.back());
    expect_op("(");
    std::vector<ExprPtr> args;
    if (!at_op(")")) {
      do {
        args.push_back(table_function_argument());
      } while (accept_op(","));
    }
    expect_op(")");
    if (name.size() == 1 && fname == "range" && !args.empty() && args.size() <= 4) {
      std::vector<int64_t> v;
      for (auto& a : args) {
        int64_t x;
        // numSlices is an INT: a larger one fails its cast there.
        const bool slices = v.size() == 3;
        if (!fold_integer(a, &x) || (slices && x != static_cast<int32_t>(x))) {
          // Other arguments are the analyzer's to fold, or to refuse as Spark does.
          auto r = new_node(PlanKind::kRange);
          r->exprs = std::move(args);
          r->origin = SqlOrigin{text_, begin, last_stop()};
          return table_alias(r, true);
        }
        v.push_back(x);
      }
      PlanPtr r;
      try {
        r = plan::range_function_node(v);
      } catch (const SparkError& e) {
        fail_range(e.kind(), e.error_class(), e.message(), e.params(), begin, last_stop());
      }
      return table_alias(r, true);
    }
    static const char* const kGenerators[] = {"explode",    "explode_outer",    "inline", "inline_outer",
                                              "posexplode", "posexplode_outer", "stack"};
    const bool table_args = std::any_of(args.begin(), args.end(), [](const ExprPtr& a) {
      return plan::is_table_argument(a->kind == plan::ExprKind::kNamedArgument ? a->children[0] : a);
    });
    for (const char* g : kGenerators) {
      if (name.size() != 1 || fname != g || table_args) continue;
      // A generator in FROM: its columns alone, the select list of one row without columns.
      auto one_row = new_node(PlanKind::kLocalRelation);
      one_row->batches.push_back(Batch({}, 1));
      auto project = new_node(PlanKind::kProject, {one_row});
      project->exprs = {plan::call(fname, std::move(args))};
      return table_alias(project, true);
    }
    std::string shown;
    for (size_t i = 0; i < name.size(); ++i) shown += (i ? "." : "") + quote_id(name[i]);
    if (fname == "json_tuple")
      fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                 "The feature is not supported: the table-valued function " + shown + ".", {},
                 begin, last_stop());
    if (name.size() == 1 && !table_args) {
      PlanPtr fixed;
      try {
        fixed = builtin_table_function(fname, args.size(), options_.enforce_reserved_keywords);
      } catch (const SparkError& e) {
        fail_range(e.kind(), e.error_class(), e.message(), e.params(), begin, last_stop());
      }
      if (fixed) return table_alias(fixed, true);
    }
    // Any other name may be a session table function (a Python UDTF): the analyzer resolves it
    // as a Generate over one row without columns, whose output is the function's columns.
    auto one_row = new_node(PlanKind::kLocalRelation);
    one_row->batches.push_back(Batch({}, 1));
    auto call = std::make_shared<plan::Expr>(*plan::call(name.back(), std::move(args)));
    auto gen = new_node(PlanKind::kGenerate, {one_row});
    gen->exprs = {call};
    gen->table_function_call = true;
    gen->origin = SqlOrigin{text_, begin, last_stop()};
    return table_alias(gen, true);
  }
  if (((at_word("FOR") || at_word("VERSION") || at_word("TIMESTAMP")) && at_word("AS", 1)))
    fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
               "The feature is not supported: " + peek().upper + " on a table.", {}, peek().begin,
               peek().stop);
  PlanPtr rel;
  if (name.size() == 1) {
    for (auto s = cte_scopes.rbegin(); s != cte_scopes.rend() && !rel; ++s) {
      auto it = s->find(ascii_lower(name[0]));
      if (it != s->end()) rel = subquery_alias(it->second, name[0]);
    }
  }
  if (!rel) {
    auto n = new_node(PlanKind::kUnresolvedRelation);
    n->table_name = name;
    n->origin = SqlOrigin{text_, begin, last_stop()};
    rel = n;
  }
  if (at_word("TABLESAMPLE") && !word_is_alias(0, true)) rel = table_sample(rel);
  return table_alias(rel, true);
}

PlanPtr Parser::table_alias(PlanPtr rel, bool allow_column_list) {
  std::string alias;
  if (accept_word("AS")) {
    alias = identifier();
  } else if (word_is_alias(0, true)) {
    alias = identifier();
  } else {
    return rel;
  }
  if (allow_column_list && at_op("(")) {
    auto todf = new_node(PlanKind::kToDF, {rel});
    todf->names = identifier_list();
    rel = todf;
  }
  return subquery_alias(rel, alias);
}

PlanPtr Parser::inline_table(bool aliased) {
  const Token& values = next();  // VALUES
  // The index of the `)` closing the `(` at token `open`.
  auto closing = [&](size_t open) {
    int depth = 0;
    for (size_t k = open; k < toks_.size(); ++k) {
      if (toks_[k].is_op("(")) ++depth;
      if (toks_[k].is_op(")") && --depth == 0) return k;
    }
    return toks_.size();
  };
  // Spark reads a row that is one STRUCT(...) or one row constructor in parentheses,
  // `(struct(1, 'a'))` or `((1, 'a'))`, as the row's values rather than as one struct value
  // (not a `struct` call written quoted or qualified, nor named_struct). `b` and `e` bound the
  // row's tokens.
  auto spread = [&](size_t b, size_t e, std::vector<ExprPtr>& row) {
    if (row.size() != 1 || row[0]->kind != ExprKind::kUnresolvedFunction ||
        row[0]->children.empty())
      return;
    if (toks_[b].is_op("(") && closing(b) == e - 1) ++b, --e;
    const std::string name = ascii_lower(row[0]->name);
    if (name == "struct" && toks_[b].is_word("STRUCT") && toks_[b + 1].is_op("(") &&
        closing(b + 1) == e - 1) {
      std::vector<ExprPtr> fields;
      for (const ExprPtr& f : row[0]->children)
        fields.push_back(f->kind == ExprKind::kAlias ? f->children[0] : f);
      row = std::move(fields);
      return;
    }
    if (name != "named_struct" || !toks_[b].is_op("(") || closing(b) != e - 1) return;
    int depth = 0;
    bool listed = false;
    for (size_t k = b; k < e; ++k) {
      if (toks_[k].is_op("(")) ++depth;
      if (toks_[k].is_op(")")) --depth;
      listed |= depth == 1 && toks_[k].is_op(",");
    }
    if (!listed) return;
    std::vector<ExprPtr> fields;
    for (size_t i = 1; i < row[0]->children.size(); i += 2) fields.push_back(row[0]->children[i]);
    row = std::move(fields);
  };
  std::vector<std::vector<ExprPtr>> rows;
  std::vector<int> row_begin;
  do {
    row_begin.push_back(peek().begin);
    const size_t first = pos_;
    if (at_op("(") && !at_query_start(1)) {
      rows.push_back(expression_list_in_parens());
    } else {
      rows.push_back({expression()});
    }
    spread(first, pos_, rows.back());
  } while (accept_op(","));
  // The column aliases of `AS t(a, b)` name the table's columns: every row must have as many
  // values as there are aliases (Spark checks the rows against the names, not the first row).
  std::string table_name;
  std::vector<std::string> names;
  if (aliased && (accept_word("AS") || word_is_alias(0, true))) {
    table_name = identifier();
    if (at_op("(")) names = identifier_list();
  }
  size_t width = names.empty() ? rows[0].size() : names.size();
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width)
      fail_range(ErrorKind::kAnalysis, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH",
                 "Invalid inline table. Inline table expected " + std::to_string(width) +
                     " columns but found " + std::to_string(rows[r].size()) + " columns in row " +
                     std::to_string(r) + ".",
                 {{"expectedNumCols", std::to_string(width)},
                  {"actualNumCols", std::to_string(rows[r].size())},
                  {"rowIndex", std::to_string(r)}},
                 values.begin, last_stop());
  }
  if (names.empty())
    for (size_t c = 0; c < width; ++c) names.push_back("col" + std::to_string(c + 1));
  auto with_alias = [&](PlanPtr table) {
    return table_name.empty() ? table : subquery_alias(table, table_name);
  };

  // Literal rows whose columns each hold one type become a local relation directly.
  bool literal_only = true;
  std::vector<TypePtr> types(width);
  std::vector<bool> nullable(width, false);
  for (auto& row : rows) {
    for (size_t c = 0; c < width && literal_only; ++c) {
      const ExprPtr& e = row[c];
      if (e->kind != ExprKind::kLiteral) {
        literal_only = false;
        break;
      }
      if (e->value.is_null()) {
        nullable[c] = true;
        continue;
      }
      if (!types[c])
        types[c] = e->type;
      else if (!types[c]->equals(*e->type))
        literal_only = false;
    }
  }
  if (literal_only) {
    auto n = new_node(PlanKind::kLocalRelation);
    std::vector<ColumnPtr> columns;
    for (size_t c = 0; c < width; ++c) {
      TypePtr type = types[c] ? types[c] : DataType::null();
      n->schema.push_back({names[c], type, nullable[c], "{}"});
      ColumnBuilder b(type, static_cast<int64_t>(rows.size()));
      for (auto& row : rows) {
        if (row[c]->value.is_null())
          b.append_null();
        else
          b.append_value(row[c]->value);
      }
      columns.push_back(b.finish());
    }
    n->batches.push_back(Batch(std::move(columns), static_cast<int64_t>(rows.size())));
    return with_alias(n);
  }
  // Otherwise each row is a projection of one row, and the rows a UNION ALL marked as an inline
  // table: the analyzer types its columns as a whole and evaluates the rows that fold.
  std::shared_ptr<plan::PlanNode> out;
  for (auto& row : rows) {
    auto project = new_node(PlanKind::kProject, {one_row_range()});
    for (size_t c = 0; c < width; ++c) project->exprs.push_back(plan::alias(row[c], names[c]));
    if (!out) {
      out = project;
      continue;
    }
    auto u = new_node(PlanKind::kSetOp, {out, project});
    u->set_op = plan::SetOpType::kUnion;
    u->is_all = true;
    out = u;
  }
  out->inline_table = true;
  // Errors of the table's values place it with its alias, as Spark's do.
  out->origin = SqlOrigin{text_, values.begin, last_stop()};
  for (auto& row : rows)
    for (auto& value : row) out->inline_value_origins.push_back(value->origin);
  return with_alias(out);
}

ExprPtr Parser::table_function_argument() {
  if (at_identifier() && at_op("=>", 1) && at_word("TABLE", 2)) {
    auto named = std::make_shared<plan::Expr>();
    named->kind = plan::ExprKind::kNamedArgument;
    named->name = identifier();
    next();  // =>
    named->children = {table_argument()};
    return named;
  }
  if (at_word("TABLE") && (at_op("(", 1) || at_identifier(1))) return table_argument();
  return function_argument();
}

/// `TABLE(t)` or `TABLE(query)`, then `WITH SINGLE PARTITION` or `PARTITION BY` (several
/// expressions in parentheses) and an optional `ORDER BY` (several items in parentheses), as
/// Spark's grammar (DISTRIBUTE and SORT are synonyms).
ExprPtr Parser::table_argument() {
  const int begin = peek().begin;
  expect_word("TABLE");
  PlanPtr table;
  if (!at_op("(")) {
    std::vector<std::string> name = multipart_identifier();
    std::string shown;
    for (size_t i = 0; i < name.size(); ++i) shown += (i ? "." : "") + quote_id(name[i]);
    fail_range(ErrorKind::kParse, "INVALID_SQL_SYNTAX.INVALID_TABLE_FUNCTION_IDENTIFIER_ARGUMENT_MISSING_PARENTHESES",
               "Invalid SQL syntax: Syntax error: call to table-valued function is invalid because parentheses are "
               "missing around the provided TABLE argument " + shown +
                   "; please surround this with parentheses and try again.",
               {{"argumentName", shown}}, begin, last_stop());
  }
  next();  // (
  if (at_identifier() && !at_query_start()) {
    const int name_begin = peek().begin;
    std::vector<std::string> name = multipart_identifier();
    auto n = new_node(PlanKind::kUnresolvedRelation);
    n->table_name = name;
    n->origin = SqlOrigin{text_, name_begin, last_stop()};
    table = n;
  } else {
    table = query();
  }
  expect_op(")");
  auto arg = std::const_pointer_cast<plan::Expr>(plan::subquery(plan::SubqueryKind::kTableArgument, table));
  auto several_without_parentheses = [&](const std::string& clause) {
    fail_range(ErrorKind::kParse, "INVALID_SQL_SYNTAX.INVALID_TABLE_FUNCTION_TABLE_ARGUMENT_PARTITIONING",
               "Invalid SQL syntax: The table function call includes a table argument with an invalid "
               "partitioning/ordering specification: the " + clause +
                   " clause included multiple expressions without parentheses surrounding them; please add "
                   "parentheses around these expressions and then retry the query again.",
               {{"clause", clause}}, begin, last_stop());
  };
  bool partitioned = false;
  if (at_word("WITH") && at_word("SINGLE", 1)) {
    pos_ += 2;
    expect_word("PARTITION");
    arg->with_single_partition = true;
    partitioned = true;
  } else if ((at_word("PARTITION") || at_word("DISTRIBUTE")) && at_word("BY", 1)) {
    pos_ += 2;
    if (accept_op("(")) {
      do arg->partition_by.push_back(expression());
      while (accept_op(","));
      expect_op(")");
    } else {
      arg->partition_by.push_back(expression());
      if (at_op(",")) {
        while (accept_op(",")) expression();
        several_without_parentheses("PARTITION BY");
      }
    }
    partitioned = true;
  }
  if (partitioned && (at_word("ORDER") || at_word("SORT")) && at_word("BY", 1)) {
    pos_ += 2;
    if (accept_op("(")) {
      do arg->order_by.push_back(sort_item());
      while (accept_op(","));
      expect_op(")");
    } else {
      arg->order_by.push_back(sort_item());
      if (at_op(",")) {
        while (accept_op(",")) sort_item();
        several_without_parentheses("ORDER BY");
      }
    }
  }
  return arg;
}

}  // namespace ember::sql
