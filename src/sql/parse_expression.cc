// Expressions, by precedence from loosest to tightest (Spark's order):
//   OR · AND · NOT · predicates (BETWEEN, IN, LIKE, IS ...) · comparisons · | · ^ · & ·
//   shifts · + - || · * / % DIV · unary - + ~ · postfix (::type, [i], .field) · primaries.
// Operators become unresolved functions named as the DataFrame API names them ("+", "==",
// "and", "not", "in" ...), so both front ends build the same trees.

#include <algorithm>
#include <cctype>
#include <limits>

#include "common/ascii.h"
#include "sql/keywords.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::Expr;
using plan::ExprKind;

namespace {

ExprPtr fn(const char* name, std::vector<ExprPtr> args) {
  return plan::call(name, std::move(args));
}
ExprPtr negate(ExprPtr e) { return fn("not", {std::move(e)}); }

std::shared_ptr<Expr> new_expr(ExprKind kind, std::vector<ExprPtr> children = {}) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->children = std::move(children);
  return e;
}

/// Words that end a select item or a table reference when they start the next clause.
bool is_clause_keyword(const std::string& w, bool for_table) {
  static const char* const kCommon[] = {"FROM",      "WHERE",   "GROUP",  "HAVING",  "ORDER",
                                        "LIMIT",     "OFFSET",  "WINDOW", "UNION",   "EXCEPT",
                                        "INTERSECT", "MINUS",   "SORT",   "CLUSTER", "DISTRIBUTE",
                                        "LATERAL",   "QUALIFY", "INTO"};
  static const char* const kTable[] = {"JOIN",  "INNER",   "LEFT",    "RIGHT",       "FULL",
                                       "CROSS", "NATURAL", "ON",      "USING",       "ANTI",
                                       "SEMI",  "PIVOT",   "UNPIVOT", "TABLESAMPLE", "SELECT"};
  for (const char* k : kCommon)
    if (w == k) return true;
  if (for_table)
    for (const char* k : kTable)
      if (w == k) return true;
  return false;
}

}  // namespace

bool Parser::word_is_alias(size_t ahead, bool for_table) const {
  const Token& t = peek(ahead);
  if (t.kind == TokenKind::kQuotedIdentifier) return true;
  if (options_.double_quoted_identifiers && t.kind == TokenKind::kString && !t.text.empty() &&
      t.text[0] == '"')
    return true;
  if (t.kind != TokenKind::kWord) return false;
  if (for_table && is_strict_non_reserved(t.upper)) return false;
  if (!is_clause_keyword(t.upper, for_table)) return true;
  // A clause keyword is an alias only where the clause could not go on (Spark's parser picks
  // the reading that parses: `SELECT 1 FROM` names the column FROM).
  auto ends = [&](size_t k) {
    const Token& n = peek(k);
    return n.kind == TokenKind::kEnd || n.is_op(";") || n.is_op(")") || n.is_op(",");
  };
  const std::string& w = t.upper;
  if (w == "GROUP" || w == "ORDER" || w == "SORT" || w == "CLUSTER" || w == "DISTRIBUTE")
    return !peek(ahead + 1).is_word("BY") || ends(ahead + 2);
  return ends(ahead + 1);
}

// --- Boolean levels ---------------------------------------------------------------------------

ExprPtr Parser::sort_item() {
  ExprPtr key = expression();
  bool asc = !accept_word("DESC");
  if (asc) accept_word("ASC");
  bool nulls_first = asc;
  if (accept_word("NULLS")) {
    nulls_first = accept_word("FIRST");
    if (!nulls_first) expect_word("LAST");
  }
  return plan::sort_order(key, asc, nulls_first);
}

ExprPtr Parser::expression() { return or_expression(); }

namespace {
bool can_start_operand(const Token& t) {
  return !(t.kind == TokenKind::kEnd || t.is_op(")") || t.is_op(",") || t.is_op(";"));
}
}  // namespace

ExprPtr Parser::or_expression() {
  ExprPtr left = and_expression();
  while (at_word("OR") && can_start_operand(peek(1))) {
    next();
    left = fn("or", {left, and_expression()});
  }
  return left;
}

ExprPtr Parser::and_expression() {
  ExprPtr left = not_expression();
  while (at_word("AND") && can_start_operand(peek(1))) {
    next();
    left = fn("and", {left, not_expression()});
  }
  return left;
}

ExprPtr Parser::not_expression() {
  if ((at_word("NOT") && can_start_operand(peek(1))) || at_op("!")) {
    next();
    return negate(not_expression());
  }
  if (at_word("EXISTS") && at_op("(", 1) && at_query_start(2)) {
    pos_ += 2;
    PlanPtr q = query();
    expect_op(")");
    return plan::subquery(plan::SubqueryKind::kExists, std::move(q));
  }
  return predicated();
}

ExprPtr Parser::predicated() {
  ExprPtr e = comparison();
  size_t ahead = at_word("NOT") ? 1 : 0;
  bool negated = ahead == 1;
  const Token& op = peek(ahead);
  if (op.is_word("BETWEEN")) {
    pos_ += ahead + 1;
    ExprPtr lo = comparison();
    expect_word("AND");
    ExprPtr hi = comparison();
    ExprPtr r = fn("between", {e, lo, hi});
    return negated ? negate(r) : r;
  }
  if (op.is_word("IN")) {
    const Token& in_tok = peek(ahead);
    pos_ += ahead + 1;
    if (!at_op("(")) fail_here();
    if (at_query_start(1)) {
      // x IN (SELECT ...); (a, b) IN (SELECT x, y ...) tests the row's values, not a struct.
      next();
      PlanPtr q = query();
      expect_op(")");
      std::vector<ExprPtr> values{e};
      if (e->kind == plan::ExprKind::kUnresolvedFunction && e->name == "named_struct") {
        values.clear();
        for (size_t i = 1; i < e->children.size(); i += 2) values.push_back(e->children[i]);
      }
      ExprPtr r = plan::subquery(plan::SubqueryKind::kIn, std::move(q), std::move(values));
      return negated ? negate(r) : r;
    }
    if (at_op(")", 1)) {
      fail_range(ErrorKind::kParse, "INVALID_SQL_SYNTAX.EMPTY_IN_PREDICATE",
                 "Invalid SQL syntax: IN predicate requires at least one value. Empty IN clauses "
                 "like 'IN ()' are "
                 "not allowed. Consider using 'WHERE FALSE' if you need an always-false condition, "
                 "or provide at "
                 "least one value in the IN list.",
                 {}, in_tok.begin, peek(1).stop);
    }
    std::vector<ExprPtr> args{e};
    for (auto& v : expression_list_in_parens()) args.push_back(v);
    ExprPtr r = plan::call("in", std::move(args));
    return negated ? negate(r) : r;
  }
  if (op.is_word("LIKE") || op.is_word("ILIKE") || op.is_word("RLIKE") || op.is_word("REGEXP")) {
    pos_ += ahead + 1;
    std::string name = op.upper == "LIKE" ? "like" : (op.upper == "ILIKE" ? "ilike" : "rlike");
    if (name != "rlike" && (at_word("ANY") || at_word("SOME") || at_word("ALL")) && at_op("(", 1))
      fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                 "The feature is not supported: LIKE ANY / LIKE ALL.", {}, peek().begin,
                 peek().stop);
    std::vector<ExprPtr> args{e, comparison()};
    if (name != "rlike" && accept_word("ESCAPE")) {
      if (peek().kind != TokenKind::kString) fail_here();
      args.push_back(string_literal(next().value));
    }
    ExprPtr r = plan::call(name, std::move(args));
    return negated ? negate(r) : r;
  }
  if (negated) return e;  // a NOT that is not part of a predicate: the caller reports it
  if (at_word("IS")) {
    next();
    bool is_not = accept_word("NOT");
    if (accept_word("NULL")) return fn(is_not ? "isnotnull" : "isnull", {e});
    if (accept_word("UNKNOWN")) return fn(is_not ? "isnotnull" : "isnull", {e});
    if (at_word("TRUE") || at_word("FALSE")) {
      bool v = next().upper == "TRUE";
      ExprPtr r = fn("<=>", {e, plan::lit(Value::boolean(v), DataType::boolean())});
      return is_not ? negate(r) : r;
    }
    if (accept_word("DISTINCT")) {
      expect_word("FROM");
      ExprPtr r = fn("<=>", {e, comparison()});
      return is_not ? r : negate(r);
    }
    fail_here();
  }
  return e;
}

// --- Value levels ------------------------------------------------------------------------------

ExprPtr Parser::comparison() {
  ExprPtr left = bit_or();
  while (true) {
    const Token& t = peek();
    if (t.kind != TokenKind::kOperator) return left;
    const std::string& op = t.text;
    if (op == "=" || op == "==") {
      next();
      left = fn("==", {left, bit_or()});
    } else if (op == "<>" || op == "!=") {
      next();
      left = negate(fn("==", {left, bit_or()}));
    } else if (op == "<" || op == "<=" || op == ">" || op == ">=" || op == "<=>") {
      next();
      left = plan::call(op, {left, bit_or()});
    } else {
      return left;
    }
  }
}

ExprPtr Parser::bit_or() {
  ExprPtr left = bit_xor();
  while (at_op("|")) {
    next();
    left = fn("|", {left, bit_xor()});
  }
  return left;
}

ExprPtr Parser::bit_xor() {
  ExprPtr left = bit_and();
  while (at_op("^")) {
    next();
    left = fn("^", {left, bit_and()});
  }
  return left;
}

ExprPtr Parser::bit_and() {
  ExprPtr left = shift();
  while (at_op("&")) {
    next();
    left = fn("&", {left, shift()});
  }
  return left;
}

ExprPtr Parser::shift() {
  ExprPtr left = additive();
  while (true) {
    // Shifts are written as adjacent `<` `<`, `>` `>` (and `>` `>` `>`), so that nested type
    // brackets such as array<array<int>> lex without special cases.
    auto adjacent = [&](size_t a) { return peek(a).begin == peek(a - 1).stop + 1; };
    const char* name = nullptr;
    size_t len = 0;
    if (at_op("<") && at_op("<", 1) && adjacent(1)) {
      name = "<<";
      len = 2;
    } else if (at_op(">") && at_op(">", 1) && adjacent(1)) {
      if (at_op(">", 2) && adjacent(2)) {
        name = ">>>";
        len = 3;
      } else {
        name = ">>";
        len = 2;
      }
    }
    if (!name) return left;
    pos_ += len;
    left = fn(name, {left, additive()});
  }
}

ExprPtr Parser::additive() {
  const int begin = peek().begin;
  ExprPtr left = multiplicative();
  while (true) {
    if (at_op("+") || at_op("-")) {
      std::string op = next().text;
      left = located(plan::call(op, {left, multiplicative()}), begin);
    } else if (at_op("||")) {
      next();
      left = located(fn("concat", {left, multiplicative()}), begin);
    } else {
      return left;
    }
  }
}

ExprPtr Parser::multiplicative() {
  const int begin = peek().begin;
  ExprPtr left = unary();
  while (true) {
    if (at_op("*") || at_op("/") || at_op("%")) {
      std::string op = next().text;
      left = located(plan::call(op, {left, unary()}), begin);
    } else if (at_word("DIV") && can_start_operand(peek(1))) {
      next();
      left = located(fn("div", {left, unary()}), begin);
    } else {
      return left;
    }
  }
}

ExprPtr Parser::unary() {
  if (at_op("-")) {
    const Token& minus = next();
    // `-1` is one literal in Spark (its type is that of the negated value: -2147483648 is INT).
    if (peek().kind == TokenKind::kNumber) return postfix(number_literal(true, &minus));
    // SQL's unary minus: negative() under the name Spark shows for it, `(- a)`.
    return fn("-", {unary()});
  }
  if (at_op("+")) {
    next();
    return fn("positive", {unary()});
  }
  if (at_op("~")) {
    next();
    return fn("~", {unary()});
  }
  return postfix();
}

ExprPtr Parser::postfix(ExprPtr e) {
  if (!e) e = primary();
  while (true) {
    if (at_op("::")) {
      next();
      e = plan::cast(e, data_type());
    } else if (at_op("[")) {
      next();
      ExprPtr key = expression();
      expect_op("]");
      e = new_expr(ExprKind::kUnresolvedExtract, {e, key});
    } else if (at_op(".") && at_identifier(1)) {
      next();
      e = new_expr(ExprKind::kUnresolvedExtract, {e, string_literal(identifier())});
    } else if (at_word("COLLATE") && at_identifier(1)) {
      // `e COLLATE name`: collate(e, name), the name as written.
      next();
      e = fn("collate", {e, string_literal(identifier())});
    } else {
      return e;
    }
  }
}

// --- Primaries ---------------------------------------------------------------------------------

ExprPtr Parser::primary() {
  const Token& t = peek();
  switch (t.kind) {
    case TokenKind::kNumber:
      return number_literal(false, nullptr);
    case TokenKind::kString: {
      if (at_identifier()) return identifier_reference({identifier()});
      std::string s;
      while (peek().kind == TokenKind::kString) s += next().value;  // 'a' 'b' is 'ab'
      return string_literal(s);
    }
    case TokenKind::kPositionalParam:
      return parameter_marker();
    case TokenKind::kQuotedIdentifier:
      break;
    case TokenKind::kOperator:
      if (t.is_op("*")) {
        next();
        return plan::star();
      }
      if (t.is_op(":") && peek(1).kind == TokenKind::kWord) return parameter_marker();
      if (t.is_op("(")) {
        next();
        if (at_query_start()) {
          PlanPtr q = query();
          expect_op(")");
          return plan::subquery(plan::SubqueryKind::kScalar, std::move(q));
        }
        ExprPtr first = expression();
        if (!at_op(",")) {
          expect_op(")");
          return first;
        }
        // (a, b): an anonymous struct with fields col1, col2 ...
        std::vector<ExprPtr> args{string_literal("col1"), first};
        while (accept_op(",")) {
          args.push_back(string_literal("col" + std::to_string(args.size() / 2 + 1)));
          args.push_back(expression());
        }
        expect_op(")");
        return plan::call("named_struct", std::move(args));
      }
      fail(t);
    case TokenKind::kWord: {
      const std::string& w = t.upper;
      if (at_typed_literal()) return typed_literal();
      if (w == "NULL" && !at_op("(", 1)) {
        next();
        return plan::lit(Value(), DataType::null());
      }
      if ((w == "TRUE" || w == "FALSE") && !at_op("(", 1)) {
        next();
        return plan::lit(Value::boolean(w == "TRUE"), DataType::boolean());
      }
      if (w == "CASE" && !at_op("(", 1) && !at_op(".", 1)) return case_expression();
      if ((w == "CAST" || w == "TRY_CAST") && at_op("(", 1))
        return cast_expression(w == "TRY_CAST");
      if ((w == "CURRENT_DATE" || w == "CURRENT_TIMESTAMP" || w == "CURRENT_USER" || w == "USER" ||
           w == "SESSION_USER" || w == "CURRENT_TIME") &&
          !at_op("(", 1) && !at_op(".", 1)) {
        next();
        // Spark reads the bare USER and SESSION_USER keywords as current_user().
        return plan::call(w == "USER" || w == "SESSION_USER" ? "current_user" : ascii_lower(w), {});
      }
      break;
    }
    case TokenKind::kHint:
    case TokenKind::kEnd:
      fail(t);
  }
  int begin = peek().begin;
  std::vector<std::string> parts{identifier()};
  while (at_op(".")) {
    if (at_op("*", 1)) {
      pos_ += 2;
      return plan::star(parts);
    }
    if (!at_identifier(1)) break;
    next();
    parts.push_back(identifier());
  }
  if (at_op("(")) return located(function_call(std::move(parts), begin), begin);
  return located(identifier_reference(std::move(parts)), begin);
}

ExprPtr Parser::identifier_reference(std::vector<std::string> parts) {
  for (auto scope = lambda_scopes.rbegin(); scope != lambda_scopes.rend(); ++scope) {
    for (const auto& v : *scope) {
      if (ascii_lower(v) != ascii_lower(parts[0])) continue;
      auto var = new_expr(ExprKind::kLambdaVariable);
      var->name = v;
      var->name_parts = {v};
      ExprPtr e = var;
      for (size_t i = 1; i < parts.size(); ++i)
        e = new_expr(ExprKind::kUnresolvedExtract, {e, string_literal(parts[i])});
      return e;
    }
  }
  return plan::col(std::move(parts));
}

std::vector<ExprPtr> Parser::expression_list_in_parens() {
  expect_op("(");
  std::vector<ExprPtr> out;
  if (accept_op(")")) return out;
  out.push_back(expression());
  while (accept_op(",")) out.push_back(expression());
  expect_op(")");
  return out;
}

ExprPtr Parser::function_argument() {
  if (at_identifier() && at_op("=>", 1)) {
    auto named = std::make_shared<Expr>();
    named->kind = plan::ExprKind::kNamedArgument;
    named->name = identifier();
    next();  // =>
    named->children = {lambda_or_expression()};
    return named;
  }
  return lambda_or_expression();
}

ExprPtr Parser::lambda_or_expression() {
  std::vector<std::string> params;
  size_t save = pos_;
  if (at_identifier() && at_op("->", 1)) {
    params.push_back(identifier());
  } else if (at_op("(") && at_identifier(1)) {
    next();
    params.push_back(identifier());
    while (accept_op(",") && at_identifier()) params.push_back(identifier());
    if (!at_op(")") || !at_op("->", 1)) {
      pos_ = save;
      params.clear();
    } else {
      next();
    }
  }
  if (params.empty()) return expression();
  expect_op("->");
  lambda_scopes.push_back(params);
  ExprPtr body = expression();
  lambda_scopes.pop_back();
  std::vector<ExprPtr> children{body};
  for (auto& p : params) {
    auto var = new_expr(ExprKind::kLambdaVariable);
    var->name = p;
    var->name_parts = {p};
    children.push_back(var);
  }
  return new_expr(ExprKind::kLambda, std::move(children));
}

ExprPtr Parser::function_call(std::vector<std::string> name_parts, int begin) {
  // system.builtin.f and builtin.f name the built-in f.
  std::string name = name_parts.back();
  if (name_parts.size() > 1) {
    std::string q;
    for (size_t i = 0; i + 1 < name_parts.size(); ++i) q += (i ? "." : "") + ascii_lower(name_parts[i]);
    if (q != "builtin" && q != "system.builtin") {
      name.clear();
      for (size_t i = 0; i < name_parts.size(); ++i) name += (i ? "." : "") + name_parts[i];
    }
  }
  const std::string lname = ascii_lower(name);
  expect_op("(");
  // Special argument forms.
  if (lname == "extract" || lname == "date_part") {
    if (at_identifier() && at_word("FROM", 1)) {
      std::string field = identifier();
      expect_word("FROM");
      ExprPtr source = expression();
      expect_op(")");
      return plan::call(lname, {string_literal(field), source});
    }
  }
  if (lname == "position" && !at_op(")")) {
    size_t save = pos_;
    ExprPtr needle = bit_or();
    if (accept_word("IN")) {
      ExprPtr haystack = expression();
      expect_op(")");
      // Spark reads POSITION(a IN b) as locate(a, b).
      return plan::call("locate", {needle, haystack});
    }
    pos_ = save;
  }
  if ((lname == "substring" || lname == "substr") && !at_op(")")) {
    size_t save = pos_;
    ExprPtr str = expression();
    if (accept_word("FROM")) {
      std::vector<ExprPtr> args{str, expression()};
      if (accept_word("FOR")) args.push_back(expression());
      expect_op(")");
      return plan::call(lname, std::move(args));
    }
    pos_ = save;
  }
  if (lname == "overlay" && !at_op(")")) {
    // OVERLAY(str PLACING replacement FROM pos [FOR len]) is overlay(str, replacement, pos[, len]).
    size_t save = pos_;
    ExprPtr str = expression();
    if (accept_word("PLACING")) {
      std::vector<ExprPtr> args{str, expression()};
      expect_word("FROM");
      args.push_back(expression());
      if (accept_word("FOR")) args.push_back(expression());
      expect_op(")");
      return plan::call(lname, std::move(args));
    }
    pos_ = save;
  }
  if (lname == "trim" && !at_op(")")) {
    // TRIM([BOTH | LEADING | TRAILING] [chars] FROM str)
    std::string mode = "BOTH";
    size_t save = pos_;
    bool has_mode = false;
    if ((at_word("BOTH") || at_word("LEADING") || at_word("TRAILING")) && !at_op(")", 1) &&
        !at_op(",", 1)) {
      mode = next().upper;
      has_mode = true;
    }
    ExprPtr chars;
    if (!at_word("FROM")) chars = expression();
    if (accept_word("FROM")) {
      ExprPtr str = expression();
      expect_op(")");
      const char* f = mode == "BOTH" ? "trim" : (mode == "LEADING" ? "ltrim" : "rtrim");
      // trim(chars, str): the order of the two-argument call, as Spark's registry takes it.
      return chars ? plan::call(f, {chars, str}) : plan::call(f, {str});
    }
    if (has_mode) fail_here();
    pos_ = save;
  }
  bool distinct = false;
  std::vector<ExprPtr> args;
  if ((at_word("DISTINCT") || at_word("ALL")) && !at_op(")", 1) && !at_op(",", 1)) {
    distinct = next().upper == "DISTINCT";
  }
  if (lname == "struct" && name_parts.size() == 1) {
    // STRUCT(a AS x, b): its arguments may be named.
    std::vector<ExprPtr> fields;
    if (!at_op(")")) {
      do {
        std::optional<std::string> alias;
        ExprPtr f = named_expression(&alias);
        fields.push_back(alias ? plan::alias(f, *alias) : f);
      } while (accept_op(","));
    }
    expect_op(")");
    return plan::call(name, std::move(fields));
  }
  if (!at_op(")")) {
    do {
      args.push_back(function_argument());
    } while (accept_op(","));
  }
  expect_op(")");
  auto call = std::make_shared<Expr>(*plan::call(name, std::move(args), distinct));
  if (at_word("WITHIN") && at_word("GROUP", 1) && (lname != "percentile_cont" && lname != "percentile_disc")) {
    // f(...) WITHIN GROUP (ORDER BY k [ASC | DESC] [NULLS FIRST | LAST], ...): the order is kept
    // on the call for the analyzer, which accepts it for listagg / string_agg only.
    pos_ += 2;
    expect_op("(");
    expect_word("ORDER");
    expect_word("BY");
    do call->order_by.push_back(sort_item());
    while (accept_op(","));
    expect_op(")");
  }
  if (at_word("WITHIN") && at_word("GROUP", 1)) {
    // percentile_cont / percentile_disc(p) WITHIN GROUP (ORDER BY v [ASC | DESC]) is the
    // function of (v, p, descending).
    if (call->children.size() != 1)
      fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                 "The feature is not supported: WITHIN GROUP.", {}, peek().begin, peek(1).stop);
    pos_ += 2;
    expect_op("(");
    expect_word("ORDER");
    expect_word("BY");
    ExprPtr key = expression();
    bool descending = accept_word("DESC");
    if (!descending) accept_word("ASC");
    expect_op(")");
    call->children = {key, call->children[0], plan::lit(Value::boolean(descending), DataType::boolean())};
  }
  if (at_word("FILTER") && at_op("(", 1)) {
    static const char* const kWindowOnly[] = {"row_number", "rank",  "dense_rank", "percent_rank", "cume_dist",
                                              "ntile",      "lag",   "lead",       "nth_value",    "counter_diff"};
    for (const char* f : kWindowOnly)
      if (lname == f)
        fail_range(ErrorKind::kAnalysis, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
                   "Invalid SQL syntax: The function `" + lname + "` does not support FILTER CLAUSE.",
                   {{"prettyName", "`" + lname + "`"}, {"syntax", "FILTER CLAUSE"}}, begin, peek(1).stop);
    pos_ += 2;
    expect_word("WHERE");
    call->filter = expression();
    expect_op(")");
  }
  if ((at_word("IGNORE") || at_word("RESPECT")) && at_word("NULLS", 1)) {
    bool ignore = next().upper == "IGNORE";
    next();
    static const char* const kIgnoreNullsAsArgument[] = {"first", "last", "first_value",
                                                         "last_value", "any_value"};
    bool supported = false;
    for (const char* f : kIgnoreNullsAsArgument) supported |= lname == f;
    // The offset window functions take the flag beside their arguments.
    if (lname == "lag" || lname == "lead" || lname == "nth_value") {
      call->ignore_nulls = ignore;
      supported = false;
      ExprPtr result = call;
      if (at_word("OVER")) result = over_clause(result);
      return result;
    }
    if (!supported)
      fail_range(ErrorKind::kAnalysis, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
                 "Invalid SQL syntax: The function `" + lname + "` does not support " +
                     (ignore ? "IGNORE NULLS." : "RESPECT NULLS."),
                 {{"prettyName", "`" + lname + "`"}, {"syntax", ignore ? "IGNORE NULLS" : "RESPECT NULLS"}}, begin,
                 last_stop());
    if (call->children.size() == 1)
      call->children.push_back(plan::lit(Value::boolean(ignore), DataType::boolean()));
    // Spark applies IGNORE / RESPECT NULLS by copying the resolved First / Last, which drops
    // the alias it was called by: `first_value(x) IGNORE NULLS` is named first(x).
    if (lname == "first_value" || lname == "last_value") call->name = lname == "first_value" ? "first" : "last";
  }
  ExprPtr result = call;
  if (at_word("OVER")) result = over_clause(result);
  return result;
}

ExprPtr Parser::case_expression() {
  expect_word("CASE");
  ExprPtr subject;
  if (!at_word("WHEN")) subject = expression();
  std::vector<ExprPtr> args;
  if (!at_word("WHEN")) fail_here();
  while (accept_word("WHEN")) {
    ExprPtr cond = expression();
    expect_word("THEN");
    ExprPtr value = expression();
    args.push_back(subject ? fn("==", {subject, cond}) : cond);
    args.push_back(value);
  }
  if (accept_word("ELSE")) args.push_back(expression());
  expect_word("END");
  return plan::call("when", std::move(args));
}

ExprPtr Parser::cast_expression(bool try_cast) {
  next();  // CAST / TRY_CAST
  expect_op("(");
  ExprPtr e = expression();
  expect_word("AS");
  TypePtr type = data_type();
  expect_op(")");
  return plan::cast(e, type, try_cast);
}

// --- Windows -----------------------------------------------------------------------------------

ExprPtr Parser::over_clause(ExprPtr function) {
  expect_word("OVER");
  auto w = new_expr(ExprKind::kWindow, {std::move(function)});
  if (!at_op("(")) {
    // OVER w: filled in from the WINDOW clause once the SELECT is read.
    w->name = identifier();
    return w;
  }
  WindowSpec spec = window_spec();
  w->name = spec.base;
  w->partition_by = std::move(spec.partition_by);
  w->order_by = std::move(spec.order_by);
  w->frame = spec.frame;
  return w;
}

WindowSpec Parser::window_spec() {
  expect_op("(");
  WindowSpec spec;
  if (at_identifier() && !at_word("PARTITION") && !at_word("DISTRIBUTE") && !at_word("ORDER") &&
      !at_word("SORT") && !at_word("CLUSTER") && !at_word("ROWS") && !at_word("RANGE")) {
    spec.base = identifier();
  }
  auto sort_items = [&]() {
    std::vector<ExprPtr> out;
    do out.push_back(sort_item());
    while (accept_op(","));
    return out;
  };
  if ((at_word("PARTITION") || at_word("DISTRIBUTE") || at_word("CLUSTER")) && at_word("BY", 1)) {
    bool cluster = at_word("CLUSTER");
    pos_ += 2;
    do spec.partition_by.push_back(expression());
    while (accept_op(","));
    if (cluster)
      for (auto& p : spec.partition_by) spec.order_by.push_back(plan::sort_order(p, true, true));
  }
  if ((at_word("ORDER") || at_word("SORT")) && at_word("BY", 1)) {
    pos_ += 2;
    spec.order_by = sort_items();
  }
  if (at_word("ROWS") || at_word("RANGE")) {
    spec.frame.type =
        next().upper == "ROWS" ? plan::WindowFrame::Type::kRows : plan::WindowFrame::Type::kRange;
    spec.frame.specified = true;
    if (accept_word("BETWEEN")) {
      spec.frame.lower_preceding_syntax = frame_bound(&spec.frame.lower, true);
      expect_word("AND");
      spec.frame.upper_preceding_syntax = frame_bound(&spec.frame.upper, false);
    } else {
      spec.frame.lower_preceding_syntax = frame_bound(&spec.frame.lower, true);
      spec.frame.upper = 0;
    }
  }
  expect_op(")");
  return spec;
}

bool Parser::frame_bound(int64_t* bound, bool lower_bound) {
  if (accept_word("UNBOUNDED")) {
    if (accept_word("PRECEDING"))
      *bound = std::numeric_limits<int64_t>::min();
    else {
      expect_word("FOLLOWING");
      *bound = std::numeric_limits<int64_t>::max();
    }
    return false;
  }
  if (at_word("CURRENT") && at_word("ROW", 1)) {
    pos_ += 2;
    *bound = 0;
    return false;
  }
  (void)lower_bound;
  int begin = peek().begin;
  ExprPtr e = additive();
  int stop = last_stop();
  if (e->kind != ExprKind::kLiteral || !e->type || !e->type->is_integral())
    fail_range(
        ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
        "The feature is not supported: window frame boundaries that are not integer literals.", {},
        begin, stop);
  int64_t v = e->value.as_int();
  if (accept_word("PRECEDING")) {
    *bound = -v;
    return true;
  }
  expect_word("FOLLOWING");
  *bound = v;
  return false;
}

// --- Named expressions -------------------------------------------------------------------------

ExprPtr Parser::named_expression(std::optional<std::string>* alias_out) {
  ExprPtr e = expression();
  if (accept_word("AS")) {
    if (at_op("(")) {
      // AS (a, b): the names of a generator's columns.
      std::vector<std::string> names = identifier_list();
      auto a = std::make_shared<Expr>(*plan::alias(e, names[0]));
      a->name_parts = names;
      *alias_out = std::nullopt;
      return a;
    }
    *alias_out = identifier();
  } else if (word_is_alias(0, false)) {
    *alias_out = identifier();
  }
  return e;
}

}  // namespace ember::sql
