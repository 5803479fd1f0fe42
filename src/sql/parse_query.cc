// Queries: WITH, set operations (INTERSECT binds tighter than UNION and EXCEPT), SELECT
// clauses, ORDER BY / LIMIT / OFFSET.

#include <cctype>

#include "common/ascii.h"
#include "sql/parse_error.h"
#include "sql/parser_impl.h"

namespace ember::sql {

using plan::ExprKind;
using plan::PlanKind;

namespace {

/// Output names a SELECT list shows in its text: aliases and plain column references.
std::vector<std::string> visible_names(const SelectClause& s) {
  std::vector<std::string> out;
  for (auto& item : s.items) {
    if (item.alias)
      out.push_back(*item.alias);
    else if (item.expr->kind == ExprKind::kUnresolvedAttribute)
      out.push_back(item.expr->name_parts.back());
    else
      return {};
  }
  return out;
}

}  // namespace

bool Parser::at_query_start(size_t ahead) const {
  const Token& t = peek(ahead);
  if (t.is_word("SELECT") || t.is_word("WITH") || t.is_word("VALUES") || t.is_word("TABLE") ||
      t.is_word("FROM"))
    return !peek(ahead + 1).is_op(")") && !peek(ahead + 1).is_op(",") &&
           !peek(ahead + 1).is_op(".");
  if (t.is_op("(")) return at_query_start(ahead + 1);
  return false;
}

PlanPtr Parser::query() {
  const size_t scopes = cte_scopes.size();
  if (at_word("WITH")) with_clause();
  Term term = set_expression();
  QueryOrganization org = query_organization();
  PlanPtr p = finish(std::move(term), org);
  cte_scopes.resize(scopes);
  return p;
}

void Parser::with_clause() {
  const Token& with = next();
  if (at_word("RECURSIVE"))
    fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
               "The feature is not supported: recursive common table expressions.", {}, with.begin,
               peek().stop);
  cte_scopes.emplace_back();
  do {
    const Token& name_tok = peek();
    std::string name = identifier();
    std::vector<std::string> columns;
    if (at_op("(")) columns = identifier_list();
    accept_word("AS");
    expect_op("(");
    PlanPtr q = query();
    expect_op(")");
    if (!columns.empty()) {
      auto todf = new_node(PlanKind::kToDF, {q});
      todf->names = columns;
      q = todf;
    }
    auto& scope = cte_scopes.back();
    if (scope.count(ascii_lower(name)))
      fail_range(ErrorKind::kParse, "DUPLICATED_CTE_NAMES",
                 "CTE definition can't have duplicate names: " + quote_id(name) + ".",
                 {{"duplicateNames", quote_id(name)}}, name_tok.begin, name_tok.stop);
    scope[ascii_lower(name)] = q;
  } while (accept_op(","));
}

Parser::Term Parser::set_expression() {
  Term left = set_term();
  while ((at_word("UNION") || at_word("EXCEPT") || at_word("MINUS") || at_word("SETMINUS")) &&
         !at_end_of_statement(1) && !at_op(")", 1)) {
    std::string op = next().upper;
    bool all = accept_word("ALL");
    if (!all) accept_word("DISTINCT");
    std::vector<std::string> names = left.names;
    PlanPtr l = to_plan(std::move(left));
    PlanPtr r = to_plan(set_term());
    auto node = new_node(PlanKind::kSetOp, {l, r});
    node->set_op = op == "UNION" ? plan::SetOpType::kUnion : plan::SetOpType::kExcept;
    // UNION DISTINCT is a distinct over UNION ALL, as Spark plans it.
    node->is_all = op == "UNION" ? true : all;
    PlanPtr p = node;
    if (op == "UNION" && !all) p = new_node(PlanKind::kDistinct, {p});
    left = Term{p, std::nullopt, names};
  }
  return left;
}

Parser::Term Parser::set_term() {
  Term left = set_primary();
  while (at_word("INTERSECT") && !at_end_of_statement(1) && !at_op(")", 1)) {
    next();
    bool all = accept_word("ALL");
    if (!all) accept_word("DISTINCT");
    std::vector<std::string> names = left.names;
    PlanPtr l = to_plan(std::move(left));
    auto node = new_node(PlanKind::kSetOp, {l, to_plan(set_primary())});
    node->set_op = plan::SetOpType::kIntersect;
    node->is_all = all;
    left = Term{node, std::nullopt, names};
  }
  return left;
}

Parser::Term Parser::set_primary() {
  if (at_word("SELECT")) {
    Term t;
    t.select = select_clause(nullptr);
    t.names = visible_names(*t.select);
    return t;
  }
  if (at_word("FROM")) {
    next();
    PlanPtr from = from_clause();
    if (!at_word("SELECT")) return Term{from, std::nullopt, {}};
    Term t;
    t.select = select_clause(from);
    t.names = visible_names(*t.select);
    return t;
  }
  if (at_word("VALUES")) return Term{inline_table(), std::nullopt, {}};
  if (at_word("TABLE") && at_identifier(1)) {
    next();
    std::vector<std::string> name = multipart_identifier();
    if (name.size() == 1)
      for (auto s = cte_scopes.rbegin(); s != cte_scopes.rend(); ++s) {
        auto it = s->find(ascii_lower(name[0]));
        if (it != s->end()) {
          auto alias = new_node(PlanKind::kSubqueryAlias, {it->second});
          alias->alias = name[0];
          return Term{alias, std::nullopt, {}};
        }
      }
    auto rel = new_node(PlanKind::kUnresolvedRelation);
    rel->table_name = name;
    return Term{rel, std::nullopt, {}};
  }
  if (at_op("(") && at_query_start(1)) {
    next();
    PlanPtr q = query();
    expect_op(")");
    return Term{q, std::nullopt, {}};
  }
  fail_here();
}

PlanPtr Parser::to_plan(Term term) {
  if (!term.select) return term.plan;
  QueryOrganization none;
  return build_select(*this, std::move(*term.select), &none);
}

SelectClause Parser::select_clause(PlanPtr from_first) {
  expect_word("SELECT");
  while (peek().kind == TokenKind::kHint) next();  // hints are accepted and ignored
  SelectClause s;
  if ((at_word("DISTINCT") || at_word("ALL")) && !at_op(",", 1) && !at_word("FROM", 1) &&
      !at_end_of_statement(1)) {
    s.distinct = next().upper == "DISTINCT";
  }
  while (true) {
    SelectItem item;
    item.begin = peek().begin;
    item.expr = named_expression(&item.alias);
    item.stop = last_stop();
    s.items.push_back(std::move(item));
    if (!at_op(",")) break;
    // `SELECT a, FROM t`: Spark reads FROM as a column and reports the trailing comma.
    if (at_word("FROM", 1) && (at_identifier(2) || at_op("(", 2)) && !at_op(",", 3) &&
        !from_first) {
      const Token& from = peek(1);
      int stop = peek(2).stop;
      fail_range(ErrorKind::kAnalysis, "TRAILING_COMMA_IN_SELECT",
                 "Trailing comma detected in SELECT clause. Remove the trailing comma before the "
                 "FROM clause.",
                 {}, from.begin, stop);
    }
    next();
  }
  if (from_first) {
    s.from = from_first;
  } else if (at_word("FROM")) {
    next();
    s.from = from_clause();
  }
  if (at_word("WHERE")) {
    next();
    s.where = expression();
  }
  if (at_word("GROUP") && at_word("BY", 1)) {
    pos_ += 2;
    s.has_group_by = true;
    if (at_word("ALL") &&
        (at_end_of_statement(1) || at_word("HAVING", 1) || at_word("ORDER", 1) ||
         at_word("LIMIT", 1) || at_word("WINDOW", 1) || at_op(")", 1) || at_word("UNION", 1) ||
         at_word("EXCEPT", 1) || at_word("INTERSECT", 1) || at_word("OFFSET", 1) ||
         at_word("SORT", 1) || at_word("CLUSTER", 1) || at_word("DISTRIBUTE", 1))) {
      next();
      s.group_by_all = true;
    } else {
      // Keys are shared by every grouping set; sets refer to them by index.
      auto key_index = [&](ExprPtr e, int begin, int stop) {
        for (size_t i = 0; i < s.group_by.size(); ++i)
          if (s.group_by[i].expr->to_string() == e->to_string()) return i;
        ClauseKey key;
        key.expr = std::move(e);
        key.begin = begin;
        key.stop = stop;
        s.group_by.push_back(std::move(key));
        return s.group_by.size() - 1;
      };
      auto rollup_sets = [](const std::vector<size_t>& keys) {
        std::vector<std::vector<size_t>> sets;
        for (size_t len = keys.size() + 1; len-- > 0;) sets.emplace_back(keys.begin(), keys.begin() + static_cast<long>(len));
        return sets;
      };
      auto cube_sets = [](const std::vector<size_t>& keys) {
        std::vector<std::vector<size_t>> sets;
        const size_t n = keys.size();
        for (size_t mask = (size_t{1} << n); mask-- > 0;) {
          std::vector<size_t> set;
          for (size_t i = 0; i < n; ++i)
            if (mask & (size_t{1} << (n - 1 - i))) set.push_back(keys[i]);
          sets.push_back(std::move(set));
        }
        return sets;
      };
      auto expr_list = [&]() {
        std::vector<size_t> keys;
        expect_op("(");
        if (!at_op(")")) {
          do {
            int begin = peek().begin;
            ExprPtr e = expression();
            keys.push_back(key_index(std::move(e), begin, last_stop()));
          } while (accept_op(","));
        }
        expect_op(")");
        return keys;
      };
      if ((at_word("ROLLUP") || at_word("CUBE")) && at_op("(", 1)) {
        bool rollup = next().upper == "ROLLUP";
        std::vector<size_t> keys = expr_list();
        s.grouping_sets = rollup ? rollup_sets(keys) : cube_sets(keys);
      } else if (at_word("GROUPING") && at_word("SETS", 1)) {
        pos_ += 2;
        expect_op("(");
        do {
          if (at_op("(")) {
            s.grouping_sets.push_back(expr_list());
          } else {
            int begin = peek().begin;
            ExprPtr e = expression();
            s.grouping_sets.push_back({key_index(std::move(e), begin, last_stop())});
          }
        } while (accept_op(","));
        expect_op(")");
      } else {
        do {
          if ((at_word("ROLLUP") || at_word("CUBE") || at_word("GROUPING")) &&
              (at_op("(", 1) || at_word("SETS", 1)))
            fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: GROUP BY keys mixed with " + peek().upper + ".", {},
                       peek().begin, peek().stop);
          ClauseKey key;
          key.begin = peek().begin;
          bool bare_integer =
              peek().kind == TokenKind::kNumber && peek().number == NumberKind::kInteger;
          key.expr = expression();
          key.stop = last_stop();
          if (bare_integer && key.expr->kind == ExprKind::kLiteral &&
              key.begin == toks_[pos_ - 1].begin) {
            key.is_ordinal = true;
            key.ordinal = static_cast<int>(key.expr->value.as_int());
          }
          s.group_by.push_back(std::move(key));
        } while (accept_op(","));
        if (at_word("WITH") && (at_word("ROLLUP", 1) || at_word("CUBE", 1))) {
          bool rollup = peek(1).upper == "ROLLUP";
          pos_ += 2;
          std::vector<size_t> keys;
          for (size_t i = 0; i < s.group_by.size(); ++i) keys.push_back(i);
          s.grouping_sets = rollup ? rollup_sets(keys) : cube_sets(keys);
        }
      }
    }
  }
  if (at_word("HAVING")) {
    next();
    s.having = expression();
  }
  if (at_word("WINDOW") && at_identifier(1) && at_word("AS", 2)) {
    next();
    do {
      std::string name = identifier();
      expect_word("AS");
      s.windows[ascii_lower(name)] = window_spec();
    } while (accept_op(","));
  }
  if (at_word("QUALIFY")) {
    next();
    s.qualify_begin = peek().begin;
    s.qualify = expression();
    s.qualify_stop = last_stop();
  }
  // Windows referred to by name take their definition now that the WINDOW clause is read.
  for (auto& item : s.items) item.expr = apply_named_windows(*this, item.expr, s.windows);
  if (s.having) s.having = apply_named_windows(*this, s.having, s.windows);
  if (s.qualify) s.qualify = apply_named_windows(*this, s.qualify, s.windows);
  return s;
}

QueryOrganization Parser::query_organization() {
  QueryOrganization org;
  auto sort_keys = [&](bool with_direction) {
    do {
      ClauseKey key;
      key.begin = peek().begin;
      bool bare_integer =
          peek().kind == TokenKind::kNumber && peek().number == NumberKind::kInteger;
      ExprPtr e = expression();
      key.stop = last_stop();
      if (bare_integer && e->kind == ExprKind::kLiteral && key.begin == toks_[pos_ - 1].begin) {
        key.is_ordinal = true;
        key.ordinal = static_cast<int>(e->value.as_int());
      }
      bool asc = true;
      bool nulls_first = true;
      if (with_direction) {
        if (accept_word("DESC"))
          asc = false;
        else
          accept_word("ASC");
        nulls_first = asc;
        if (at_word("NULLS") && (at_word("FIRST", 1) || at_word("LAST", 1))) {
          next();
          nulls_first = next().upper == "FIRST";
        }
      }
      key.expr = plan::sort_order(e, asc, nulls_first);
      org.order_by.push_back(std::move(key));
    } while (accept_op(","));
  };
  if (at_word("ORDER") && at_word("BY", 1)) {
    pos_ += 2;
    sort_keys(true);
  } else if (at_word("CLUSTER") && at_word("BY", 1)) {
    pos_ += 2;
    org.global_sort = false;
    org.distribute = true;
    sort_keys(false);
  } else {
    if (at_word("DISTRIBUTE") && at_word("BY", 1)) {
      pos_ += 2;
      org.distribute = true;
      do expression();  // repartitioning does not change a local result
      while (accept_op(","));
    }
    if (at_word("SORT") && at_word("BY", 1)) {
      pos_ += 2;
      org.global_sort = false;
      sort_keys(true);
    }
  }
  if (at_word("LIMIT") && !at_end_of_statement(1)) {
    next();
    if (!accept_word("ALL")) {
      org.limit_begin = peek().begin;
      ExprPtr e = expression();
      org.limit_stop = last_stop();
      org.limit = constant_integer(e, "limit", org.limit_begin, org.limit_stop);
    }
  }
  if (at_word("OFFSET") && !at_end_of_statement(1)) {
    next();
    org.offset_begin = peek().begin;
    ExprPtr e = expression();
    org.offset_stop = last_stop();
    org.offset = constant_integer(e, "offset", org.offset_begin, org.offset_stop);
  }
  return org;
}

PlanPtr Parser::finish(Term term, QueryOrganization& org) {
  PlanPtr p;
  if (term.select) {
    p = build_select(*this, std::move(*term.select), &org);
  } else {
    p = term.plan;
    if (!org.order_by.empty()) {
      auto sort = new_node(PlanKind::kSort, {p});
      sort->is_global = org.global_sort;
      for (auto& key : org.order_by) {
        ExprPtr order = key.expr;
        if (key.is_ordinal) {
          if (term.names.empty())
            fail_range(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The feature is not supported: ORDER BY position over this query; name the "
                       "column instead.",
                       {}, key.begin, key.stop);
          if (key.ordinal < 1 || key.ordinal > static_cast<int>(term.names.size()))
            fail_range(ErrorKind::kAnalysis, "ORDER_BY_POS_OUT_OF_RANGE",
                       "ORDER BY position " + std::to_string(key.ordinal) +
                           " is not in select list (valid range is [1, " +
                           std::to_string(term.names.size()) + "]).",
                       {{"index", std::to_string(key.ordinal)},
                        {"size", std::to_string(term.names.size())}},
                       key.begin, key.stop);
          order = plan::sort_order(plan::col({term.names[static_cast<size_t>(key.ordinal - 1)]}),
                                   order->ascending, order->nulls_first);
        }
        sort->exprs.push_back(order);
      }
      p = sort;
    }
  }
  if (org.offset) {
    auto n = new_node(PlanKind::kOffset, {p});
    n->limit = *org.offset;
    p = n;
  }
  if (org.limit) {
    auto n = new_node(PlanKind::kLimit, {p});
    n->limit = *org.limit;
    p = n;
  }
  return p;
}

}  // namespace ember::sql
