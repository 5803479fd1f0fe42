// The clauses that reshape a relation in FROM: PIVOT, UNPIVOT and TABLESAMPLE.

#include <cctype>
#include <random>
#include <regex>

#include "common/number_format.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::ExprKind;
using plan::PlanKind;

/// PIVOT (agg [AS a], ... FOR col | (c1, c2, ...) IN (value [AS v], ...)) [[AS] alias]: an
/// unresolved kPivot that groups by the columns neither pivoted nor aggregated.
PlanPtr Parser::pivot_clause(PlanPtr rel) {
  next();  // PIVOT
  expect_op("(");
  auto n = new_node(PlanKind::kPivot, {std::move(rel)});
  n->pivot_group_by_rest = true;
  do {
    ExprPtr e = expression();
    // `agg [AS] name`; a bare FOR ends the list.
    if (accept_word("AS") || (at_identifier() && !at_word("FOR"))) e = plan::alias(e, identifier());
    n->aggregates.push_back(e);
  } while (accept_op(","));
  if (!at_word("FOR") && at_word("IN")) fail(peek(), ": missing 'FOR'");
  expect_word("FOR");
  if (accept_op("(")) {
    do {
      n->pivot_columns.push_back(plan::col({identifier()}));
    } while (accept_op(","));
    expect_op(")");
  } else {
    n->pivot_columns.push_back(plan::col({identifier()}));
  }
  expect_word("IN");
  if (!at_op("(") && !at_op(")") && !at_end_of_statement()) fail(peek(), ": missing '('");
  expect_op("(");
  do {
    ExprPtr v;
    if (at_op("(") && !at_query_start(1)) {
      // (v1, v2, ...): a row of values for several pivot columns.
      std::vector<ExprPtr> row = expression_list_in_parens();
      v = row.size() == 1 ? row[0] : plan::call("struct", std::move(row));
    } else {
      v = expression();
    }
    if (accept_word("AS") || (at_identifier() && !at_op(",") && !at_op(")")))
      v = plan::alias(v, identifier());
    n->pivot_values.push_back(v);
  } while (accept_op(","));
  expect_op(")");
  expect_op(")");
  return table_alias(n, false);
}

/// UNPIVOT [INCLUDE | EXCLUDE NULLS] (value FOR name IN (col [AS a], ...)) or
/// ((v1, v2) FOR name IN ((c1, c2) [AS a], ...)) [[AS] alias]. Nulls are excluded by default.
PlanPtr Parser::unpivot_clause(PlanPtr rel) {
  next();  // UNPIVOT
  auto n = new_node(PlanKind::kUnpivot, {std::move(rel)});
  n->unpivot_ids_given = false;
  n->unpivot_include_nulls = false;
  if (at_word("INCLUDE") || at_word("EXCLUDE")) {
    n->unpivot_include_nulls = next().upper == "INCLUDE";
    if (!at_word("NULLS") && at_op("(")) fail(peek(), ": missing 'NULLS'");
    expect_word("NULLS");
  }
  const Token& open = peek();
  expect_op("(");
  const bool multi = accept_op("(");
  do {
    n->names.push_back(identifier());
  } while (multi && accept_op(","));
  if (multi) expect_op(")");
  // Spark's parser then reads UNPIVOT as the table's alias and stops at the parenthesis.
  if (!at_word("FOR")) fail(open);
  expect_word("FOR");
  n->alias = identifier();
  expect_word("IN");
  expect_op("(");
  auto column = [&]() { return plan::col(multipart_identifier()); };
  do {
    std::vector<ExprPtr> set;
    if (multi) {
      expect_op("(");
      do {
        set.push_back(column());
      } while (accept_op(","));
      expect_op(")");
    } else {
      set.push_back(column());
    }
    std::string name;
    if (accept_word("AS") || (at_identifier() && !at_op(",") && !at_op(")"))) name = identifier();
    n->unpivot_values.push_back(std::move(set));
    n->unpivot_aliases.push_back(name);
  } while (accept_op(","));
  expect_op(")");
  expect_op(")");
  return table_alias(n, false);
}

/// TABLESAMPLE (x PERCENT | expr ROWS | BUCKET x OUT OF y) [REPEATABLE (seed)] after a table or
/// a parenthesized query: a Sample of that fraction, or a Limit for ROWS.
PlanPtr Parser::table_sample(PlanPtr rel) {
  const Token& start = next();  // TABLESAMPLE
  const int begin = start.begin;
  expect_op("(");
  enum class Method { kPercent, kRows, kBucket } method;
  double fraction = 0;
  ExprPtr rows;
  int rows_begin = 0, rows_stop = 0;
  if (at_op(")")) {
    fail_range(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0014", "TABLESAMPLE does not accept empty inputs.", {},
               begin, peek().stop);
  }
  size_t k = at_op("-") ? 1 : 0;
  const Token& num = peek(k);
  if (num.kind == TokenKind::kNumber &&
      (num.number == NumberKind::kInteger || num.number == NumberKind::kDecimal) && at_word("PERCENT", k + 1)) {
    method = Method::kPercent;
    pos_ += k + 2;
    fraction = std::stod(num.text) / 100.0 * (k ? -1 : 1);
  } else if (at_word("BUCKET") && peek(1).kind == TokenKind::kNumber && peek(1).number == NumberKind::kInteger &&
             at_word("OUT", 2) && at_word("OF", 3)) {
    method = Method::kBucket;
    next();
    double numerator = std::stod(next().text);
    pos_ += 2;
    const Token& den = peek();
    if (den.kind != TokenKind::kNumber || den.number != NumberKind::kInteger) fail_here();
    next();
    double denominator = std::stod(den.text);
    if (at_word("ON")) {
      next();
      multipart_identifier();
      const bool function = accept_op("(");
      if (function) expect_op(")");
      expect_op(")");
      const std::string what = function ? "BUCKET x OUT OF y ON function" : "BUCKET x OUT OF y ON colname";
      fail_range(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0015", "TABLESAMPLE(" + what + ") is not supported.",
                 {{"msg", what}}, begin, last_stop());
    }
    fraction = numerator / denominator;
  } else {
    rows_begin = peek().begin;
    ExprPtr e = expression();
    rows_stop = last_stop();
    if (accept_word("ROWS")) {
      method = Method::kRows;
      rows = e;
    } else {
      // One stray word before `)` is Spark's `extra input`.
      if (!at_op(")")) {
        if (at_op(")", 1)) fail(peek(), ": extra input '" + peek().text + "'");
        fail_here();
      }
      next();
      std::string bytes(text(rows_begin, rows_stop));
      if (std::regex_match(bytes, std::regex("[0-9]+[bBkKmMgG]")))
        fail_range(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0015", "TABLESAMPLE(byteLengthLiteral) is not supported.",
                   {{"msg", "byteLengthLiteral"}}, begin, last_stop());
      fail_range(ErrorKind::kParse, "_LEGACY_ERROR_TEMP_0016",
                 bytes + " is not a valid byte length literal, expected syntax: DIGIT+ ('B' | 'K' | 'M' | 'G').",
                 {{"bytesStr", bytes}}, begin, last_stop());
    }
  }
  expect_op(")");
  int64_t seed = 0;
  bool repeatable = false;
  if (accept_word("REPEATABLE")) {
    // Spark reports a seed that is not an unsigned integer at the parenthesis.
    const Token& s = peek(1);
    if (!at_op("(") || s.kind != TokenKind::kNumber || s.number != NumberKind::kInteger) fail_here();
    next();
    next();
    seed = std::stoll(s.text);
    repeatable = true;
    expect_op(")");
  }
  if (method == Method::kRows) {
    auto limit = new_node(PlanKind::kLimit, {std::move(rel)});
    limit->limit = constant_integer(rows, "limit", rows_begin, rows_stop);
    return limit;
  }
  const double eps = 1e-6;
  if (!(fraction >= -eps && fraction <= 1 + eps)) {
    std::string shown = std::isinf(fraction) ? (fraction > 0 ? "Infinity" : "-Infinity") : java_double_string(fraction);
    fail_range(ErrorKind::kParse, "INVALID_TABLESAMPLE_FRACTION",
               "Sampling fraction (" + shown + ") must be on interval [0, 1].", {{"fraction", shown}}, begin,
               last_stop());
  }
  if (!repeatable) seed = static_cast<int64_t>(std::random_device{}() % 1000);
  auto sample = new_node(PlanKind::kSample, {std::move(rel)});
  sample->lower = 0;
  sample->upper = fraction;
  sample->with_replacement = false;
  sample->seed = seed;
  return sample;
}

}  // namespace ember::sql
