// Entry points of the SQL parser, token handling and identifiers.

#include "sql/parser.h"

#include <cctype>

#include "functions/function.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

ParseOptions ParseOptions::from_config(const Config& config) {
  ParseOptions o;
  o.time_zone = config.session_time_zone();
  o.double_quoted_identifiers =
      config.get_bool("spark.sql.ansi.doubleQuotedIdentifiers", false) && config.ansi_enabled();
  o.enforce_reserved_keywords =
      config.get_bool("spark.sql.ansi.enforceReservedKeywords", false) && config.ansi_enabled();
  return o;
}

ParseOptions ParseOptions::for_session(plan::Session& session) {
  ParseOptions o = from_config(session.config());
  plan::Session* s = &session;
  o.relation_columns = [s](const plan::PlanPtr& relation) {
    std::vector<std::pair<std::string, std::string>> out;
    plan::PlanPtr analyzed = s->analyze(relation);
    for (auto& a : analyzed->output)
      out.emplace_back(a->qualifier.empty() ? "" : a->qualifier.back(), a->name);
    return out;
  };
  return o;
}

ExprPtr Parser::located(ExprPtr e, int begin) const {
  if (!e || e->origin.known()) return e;
  auto copy = std::make_shared<plan::Expr>(*e);
  copy->origin = SqlOrigin{text_, begin, last_stop()};
  return copy;
}

Parser::Parser(std::string_view sql, const ParseOptions& options)
    : sql_(sql), options_(options), toks_(tokenize(sql)) {
  text_ = std::make_shared<const std::string>(sql);
  if (!options_.relations.empty()) {
    std::map<std::string, PlanPtr> scope;
    for (const auto& [name, relation] : options_.relations) {
      std::string key = name;
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      scope[key] = relation;
    }
    cte_scopes.push_back(std::move(scope));
  }
}

const Token& Parser::peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

const Token& Parser::next() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

bool Parser::accept_word(std::string_view kw) {
  if (!at_word(kw)) return false;
  next();
  return true;
}

bool Parser::accept_op(std::string_view op) {
  if (!at_op(op)) return false;
  next();
  return true;
}

void Parser::expect_word(std::string_view kw) {
  if (accept_word(kw)) return;
  // ANTLR's single-token deletion: one unexpected token before the expected one.
  if (peek(1).is_word(kw)) fail(peek(), ": extra input '" + peek().text + "'");
  fail_here();
}

void Parser::expect_op(std::string_view op) {
  if (accept_op(op)) return;
  if (peek(1).is_op(op)) fail(peek(), ": extra input '" + peek().text + "'");
  fail_here();
}

bool Parser::at_end_of_statement(size_t ahead) const {
  size_t i = ahead;
  while (peek(i).is_op(";")) ++i;
  return peek(i).kind == TokenKind::kEnd;
}

void Parser::expect_end() {
  if (at_end_of_statement()) return;
  while (at_op(";")) next();  // `SELECT 1; SELECT 2` fails at the second statement
  // A hint is several tokens in Spark's lexer, so it never reads as one extra token.
  if (at_end_of_statement(1) && peek().kind != TokenKind::kHint)
    fail(peek(), ": extra input '" + peek().text + "'");
  fail_here();
}

void Parser::fail(const Token& at, const std::string& hint) const {
  throw_syntax_error(sql_, at, hint);
}

void Parser::fail_range(ErrorKind kind, const std::string& error_class, const std::string& message,
                        std::map<std::string, std::string> params, int begin, int stop) const {
  throw positioned_error(kind, error_class, message, std::move(params), sql_, begin, stop);
}

std::string_view Parser::text(int begin, int stop) const {
  if (stop < begin) return {};
  return sql_.substr(static_cast<size_t>(begin), static_cast<size_t>(stop - begin + 1));
}

bool Parser::at_identifier(size_t ahead) const {
  const Token& t = peek(ahead);
  if (t.kind == TokenKind::kWord || t.kind == TokenKind::kQuotedIdentifier) return true;
  return options_.double_quoted_identifiers && t.kind == TokenKind::kString && !t.text.empty() &&
         t.text[0] == '"';
}

std::string Parser::identifier() {
  if (!at_identifier()) fail_here();
  const Token& t = next();
  return t.kind == TokenKind::kWord ? t.text : t.value;
}

std::vector<std::string> Parser::multipart_identifier() {
  std::vector<std::string> parts{identifier()};
  while (at_op(".") && at_identifier(1)) {
    next();
    parts.push_back(identifier());
  }
  return parts;
}

std::vector<std::string> Parser::identifier_list() {
  expect_op("(");
  std::vector<std::string> out{identifier()};
  while (accept_op(",")) out.push_back(identifier());
  expect_op(")");
  return out;
}

void Parser::reject_empty() const {
  // Blank text only: a statement of comments is an ordinary syntax error at its end in Spark.
  for (char c : sql_)
    if (!std::isspace(static_cast<unsigned char>(c))) return;
  const Token& end = toks_.back();
  throw positioned_error(ErrorKind::kParse, "PARSE_EMPTY_STATEMENT",
                         "Syntax error, unexpected empty statement.", {}, sql_, end.begin,
                         end.stop);
}

PlanPtr Parser::whole_query() {
  reject_empty();
  PlanPtr p = query();
  expect_end();
  return p;
}

ExprPtr Parser::whole_expression() {
  std::optional<std::string> alias;
  ExprPtr e = named_expression(&alias);
  expect_end();
  if (alias) return plan::alias(e, *alias);
  return e;
}

Statement Parser::whole_statement() {
  reject_empty();
  Statement s = statement();
  expect_end();
  s.text = std::string(sql_);
  return s;
}

// --- Helpers shared by the parser files -----------------------------------------------------

std::shared_ptr<plan::PlanNode> new_node(plan::PlanKind kind, std::vector<PlanPtr> children) {
  auto n = std::make_shared<plan::PlanNode>();
  n->kind = kind;
  n->children = std::move(children);
  return n;
}

ExprPtr string_literal(const std::string& s) {
  return plan::lit(Value::bytes(s), DataType::string());
}
ExprPtr int_literal(int32_t v) { return plan::lit(Value::integer(v), DataType::int_()); }

bool is_aggregate_function(const std::string& name) {
  const functions::FunctionDef* def = functions::Registry::instance().find(name);
  return def != nullptr && def->kind == functions::FunctionKind::kAggregate;
}

bool contains_aggregate_call(const ExprPtr& e) {
  if (e->kind == plan::ExprKind::kWindow) {
    for (auto& p : e->partition_by)
      if (contains_aggregate_call(p)) return true;
    for (auto& o : e->order_by)
      if (contains_aggregate_call(o)) return true;
    for (auto& c : e->children[0]->children)
      if (contains_aggregate_call(c)) return true;
    return false;
  }
  if (e->kind == plan::ExprKind::kUnresolvedFunction && is_aggregate_function(e->name)) return true;
  for (auto& c : e->children)
    if (contains_aggregate_call(c)) return true;
  return false;
}

// --- Public API -------------------------------------------------------------------------------

plan::PlanPtr parse_query(std::string_view sql, const ParseOptions& options) {
  return Parser(sql, options).whole_query();
}

plan::ExprPtr parse_expression(std::string_view sql, const ParseOptions& options) {
  return Parser(sql, options).whole_expression();
}

Statement parse_statement(std::string_view sql, const ParseOptions& options) {
  return Parser(sql, options).whole_statement();
}

std::vector<std::string> split_statements(std::string_view script) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    size_t b = cur.find_first_not_of(" \t\r\n");
    if (b != std::string::npos) {
      size_t e = cur.find_last_not_of(" \t\r\n");
      std::string s = cur.substr(b, e - b + 1);
      // A statement made of comments only is no statement.
      bool only_comments = true;
      try {
        only_comments = tokenize(s).size() == 1;
      } catch (const SparkError&) {
        only_comments = false;
      }
      if (!only_comments) out.push_back(s);
    }
    cur.clear();
  };
  size_t i = 0;
  const size_t n = script.size();
  while (i < n) {
    char c = script[i];
    if (c == '\'' || c == '"' || c == '`') {
      size_t j = i + 1;
      while (j < n && script[j] != c) {
        if (script[j] == '\\' && c != '`' && j + 1 < n) ++j;
        ++j;
      }
      j = std::min(j + 1, n);
      cur.append(script.substr(i, j - i));
      i = j;
    } else if (c == '-' && i + 1 < n && script[i + 1] == '-') {
      size_t j = script.find('\n', i);
      j = j == std::string_view::npos ? n : j;
      cur.append(script.substr(i, j - i));
      i = j;
    } else if (c == '/' && i + 1 < n && script[i + 1] == '*') {
      int depth = 0;
      size_t j = i;
      while (j < n) {
        if (script[j] == '/' && j + 1 < n && script[j + 1] == '*') {
          ++depth;
          j += 2;
        } else if (script[j] == '*' && j + 1 < n && script[j + 1] == '/') {
          j += 2;
          if (--depth == 0) break;
        } else {
          ++j;
        }
      }
      cur.append(script.substr(i, j - i));
      i = j;
    } else if (c == ';') {
      flush();
      ++i;
    } else {
      cur += c;
      ++i;
    }
  }
  flush();
  return out;
}

}  // namespace ember::sql
