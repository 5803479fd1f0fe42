#include "plan/subquery.h"

#include <map>

#include "common/error.h"
#include "plan/analyzer.h"
#include "plan/window_resolution.h"
#include "functions/function.h"

namespace ember::plan {
namespace {

void walk_plan_exprs(const PlanPtr& p, const std::function<void(const ExprPtr&)>& f) {
  for (auto* list : {&p->exprs, &p->aggregates})
    for (auto& e : *list) f(e);
  if (p->condition) f(p->condition);
  for (auto& c : p->children) walk_plan_exprs(c, f);
}

/// Outer references anywhere in `p` (nested subqueries included, `level` deep) that reach
/// above `p`: an outer reference names the query `ordinal` levels up from its own.
void scan_plan(const PlanPtr& p, int level, std::vector<ExprPtr>& outer) {
  std::function<void(const ExprPtr&)> expr = [&](const ExprPtr& e) {
    if (e->kind == ExprKind::kOuterReference && e->ordinal > level) outer.push_back(e->children[0]);
    if (e->kind == ExprKind::kSubquery && e->subquery) scan_plan(e->subquery, level + 1, outer);
    for (auto& c : e->children) expr(c);
    if (e->filter) expr(e->filter);
  };
  walk_plan_exprs(p, expr);
}

std::vector<ExprPtr> outer_attributes(const PlanPtr& p) {
  std::vector<ExprPtr> outer;
  scan_plan(p, 0, outer);
  std::set<int64_t> seen;
  std::vector<ExprPtr> out;
  for (auto& a : outer)
    if (seen.insert(a->expr_id).second) out.push_back(a);
  return out;
}


std::set<int64_t> ids_of(const std::vector<ExprPtr>& attrs) {
  std::set<int64_t> s;
  for (auto& a : attrs) s.insert(a->expr_id);
  return s;
}

ExprPtr scalar_subquery_join(PlanPtr& input, const PlanPtr& query, const Config& conf);

[[noreturn]] void unsupported_correlation(const std::string& where) {
  throw SparkError(
      ErrorKind::kAnalysis,
      "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.ACCESSING_OUTER_QUERY_COLUMN_IS_NOT_ALLOWED",
      "Unsupported subquery expression: Accessing outer query column is not allowed in this "
      "location:\n" +
          where,
      {{"treeNode", where}}, "0A000");
}

bool plan_reads_outer(const PlanPtr& p) {
  bool found = false;
  walk_plan_exprs(p, [&](const ExprPtr& e) { found = found || has_outer_reference(e); });
  return found;
}

bool is_or(const ExprPtr& e) { return e->kind == ExprKind::kCall && e->function && e->function->name == "or"; }

void split_disjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (is_or(e)) {
    for (auto& c : e->children) split_disjuncts(c, out);
    return;
  }
  out.push_back(e);
}

/// (a AND b) OR (a AND c) → a, (b OR c): the conjuncts every disjunct shares come out of the
/// disjunction, so that a correlated equality repeated in each branch (TPC-DS q41) becomes a
/// join key. Appends the resulting conjuncts of `e` to `out`.
void factor_disjunction(const ExprPtr& e, std::vector<ExprPtr>& out, const Config& conf) {
  std::vector<ExprPtr> branches;
  split_disjuncts(e, branches);
  if (branches.size() < 2) {
    out.push_back(e);
    return;
  }
  std::vector<std::vector<ExprPtr>> terms(branches.size());
  for (size_t i = 0; i < branches.size(); ++i) split_conjuncts(branches[i], terms[i]);
  std::vector<ExprPtr> common;
  for (auto& t : terms[0]) {
    const std::string k = semantic_key(t);
    bool everywhere = true;
    for (size_t i = 1; i < terms.size() && everywhere; ++i) {
      everywhere = false;
      for (auto& u : terms[i])
        if (semantic_key(u) == k) everywhere = true;
    }
    bool seen = false;
    for (auto& c : common) seen |= semantic_key(c) == k;
    if (everywhere && !seen && t->deterministic()) common.push_back(t);
  }
  if (common.empty()) {
    out.push_back(e);
    return;
  }
  std::vector<ExprPtr> rest;
  bool some_branch_empty = false;
  for (auto& t : terms) {
    std::vector<ExprPtr> left;
    for (auto& u : t) {
      bool shared = false;
      for (auto& c : common) shared |= semantic_key(c) == semantic_key(u);
      if (!shared) left.push_back(u);
    }
    if (left.empty()) some_branch_empty = true;  // that branch is the common part alone: true
    else rest.push_back(conjoin(left, conf));
  }
  for (auto& c : common) out.push_back(c);
  if (!some_branch_empty) {
    ExprPtr d = rest[0];
    for (size_t i = 1; i < rest.size(); ++i) d = resolved_call("or", {d, rest[i]}, conf);
    out.push_back(d);
  }
}

PlanPtr pull(const PlanPtr& node, std::vector<ExprPtr>& preds, const Config& conf) {
  switch (node->kind) {
    case PlanKind::kFilter: {
      PlanPtr child = pull(node->children[0], preds, conf);
      std::vector<ExprPtr> split, parts, keep;
      split_conjuncts(node->condition, split);
      for (auto& c : split) {
        if (is_or(c) && has_outer_reference(c)) factor_disjunction(c, parts, conf);
        else parts.push_back(c);
      }
      bool pulled = false;
      for (auto& c : parts) {
        if (has_outer_reference(c)) {
          preds.push_back(strip_outer_references(c));
          pulled = true;
        } else {
          keep.push_back(c);
        }
      }
      if (!pulled && child == node->children[0]) return node;
      return keep.empty() ? child : filter_node(child, conjoin(keep, conf));
    }
    case PlanKind::kProject: {
      for (auto& e : node->exprs)
        if (has_outer_reference(e)) unsupported_correlation(plan_tree_string(node));
      size_t before = preds.size();
      PlanPtr child = pull(node->children[0], preds, conf);
      if (preds.size() == before && child == node->children[0]) return node;
      // Keep the columns the pulled conjuncts read.
      auto n = std::make_shared<PlanNode>(*node);
      n->children = {child};
      std::set<int64_t> have = ids_of(n->output);
      std::set<int64_t> below = ids_of(child->output);
      for (auto& p : preds) {
        std::set<int64_t> refs;
        collect_attribute_ids(p, refs);
        for (auto& a : child->output)
          if (refs.count(a->expr_id) && below.count(a->expr_id) && have.insert(a->expr_id).second) {
            n->exprs.push_back(a);
            n->output.push_back(a);
          }
      }
      return n;
    }
    case PlanKind::kSubqueryAlias: {
      PlanPtr child = pull(node->children[0], preds, conf);
      return child == node->children[0] ? node : child;
    }
    default:
      if (plan_reads_outer(node)) unsupported_correlation(plan_tree_string(node));
      return node;
  }
}

bool is_count_like(const ExprPtr& agg) {
  const std::string& n = agg->function->name;
  return n == "count" || n == "count_if" || n == "approx_count_distinct";
}

/// The value of an aggregate output expression over no rows: counts are 0, other aggregates
/// null (Spark's evaluation of the expression on an empty group, for the COUNT bug).
ExprPtr value_on_empty_input(const ExprPtr& e) {
  if (e->kind == ExprKind::kAggregate)
    return lit(is_count_like(e) ? Value::integer(0) : Value(), e->type);
  if (e->kind == ExprKind::kAlias) return value_on_empty_input(e->children[0]);
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(value_on_empty_input(c));
  return with_children(e, std::move(kids));
}

PlanPtr left_outer_join(const PlanPtr& left, const PlanPtr& right, const std::vector<ExprPtr>& on,
                        bool single_match, const Config& conf) {
  auto join = std::make_shared<PlanNode>();
  join->kind = PlanKind::kJoin;
  join->join_type = JoinType::kLeftOuter;
  join->single_match = single_match;
  join->children = {left, right};
  join->condition = on.empty() ? nullptr : conjoin(on, conf);
  join->output = left->output;
  for (auto& a : right->output) {
    auto c = std::make_shared<Expr>(*a);
    c->nullable = true;
    join->output.push_back(c);
  }
  join->resolved = true;
  return join;
}

/// Splits correlated conjuncts pulled out of a subquery (`below` is what remains of it) into
/// equalities `inner key = outer key`. Returns the first conjunct that is no such equality
/// (null when all are).
ExprPtr split_equality_keys(const std::vector<ExprPtr>& preds, const PlanPtr& below,
                            std::vector<ExprPtr>& inner_keys, std::vector<ExprPtr>& outer_keys) {
  std::set<int64_t> inner = ids_of(below->output);
  auto only_outer = [&](const std::set<int64_t>& refs) {
    if (refs.empty()) return false;
    for (int64_t r : refs)
      if (inner.count(r)) return false;
    return true;
  };
  for (auto& p : preds) {
    bool eq = p->kind == ExprKind::kCall && p->function && p->function->name == "==";
    if (!eq) return p;
    const ExprPtr& a = p->children[0];
    const ExprPtr& b = p->children[1];
    std::set<int64_t> ra, rb;
    collect_attribute_ids(a, ra);
    collect_attribute_ids(b, rb);
    const bool a_inner = !ra.empty() && refs_subset(a, inner);
    const bool b_inner = !rb.empty() && refs_subset(b, inner);
    if (a_inner && only_outer(rb)) {
      inner_keys.push_back(a);
      outer_keys.push_back(b);
    } else if (b_inner && only_outer(ra)) {
      inner_keys.push_back(b);
      outer_keys.push_back(a);
    } else {
      return p;
    }
  }
  return nullptr;
}

/// split_equality_keys, raising Spark's CORRELATED_COLUMN_IS_NOT_ALLOWED_IN_PREDICATE for a
/// conjunct that is no equality between the subquery and the outer query.
void split_correlation_keys(const std::vector<ExprPtr>& preds, const PlanPtr& below,
                            std::vector<ExprPtr>& inner_keys, std::vector<ExprPtr>& outer_keys) {
  ExprPtr p = split_equality_keys(preds, below, inner_keys, outer_keys);
  if (!p) return;
  throw SparkError(
      ErrorKind::kAnalysis,
      "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_COLUMN_IS_NOT_ALLOWED_IN_PREDICATE",
      "Unsupported subquery expression: Correlated column is not allowed in predicate: " +
          p->to_string() + ".",
      {{"treeNode", p->to_string()}}, "0A000");
}

/// `e` with the attributes of `from` (by id) replaced by the expressions `to` at their index.
ExprPtr replace_attributes(const ExprPtr& e, const std::vector<ExprPtr>& from,
                           const std::vector<ExprPtr>& to) {
  return transform_attributes(e, [&](const ExprPtr& a) {
    for (size_t i = 0; i < from.size(); ++i)
      if (from[i]->expr_id == a->expr_id) return to[i];
    return a;
  });
}

/// The rows of `below` that meet correlated conjuncts other than equalities, as Spark's
/// DecorrelateInnerQuery joins them to the domain of the outer values they read: the distinct
/// values of those outer columns of `input` (`outer_keys`), inner joined with `below` on
/// `preds` over them. `inner_keys` are the domain's columns, matched null-safely against
/// `outer_keys` above.
PlanPtr domain_join(const PlanPtr& input, const PlanPtr& below, const std::vector<ExprPtr>& preds,
                    std::vector<ExprPtr>& inner_keys, std::vector<ExprPtr>& outer_keys,
                    const Config& conf, const std::string& where) {
  std::set<int64_t> inner = ids_of(below->output);
  std::set<int64_t> available = ids_of(input->output);
  std::set<int64_t> refs;
  for (auto& p : preds) collect_attribute_ids(p, refs);
  std::vector<ExprPtr> outer;
  for (auto& a : input->output)
    if (refs.count(a->expr_id) && !inner.count(a->expr_id)) outer.push_back(a);
  for (int64_t r : refs)
    if (!inner.count(r) && !available.count(r)) unsupported_correlation(where);
  auto domain = std::make_shared<PlanNode>();
  domain->kind = PlanKind::kAggregate;
  domain->children = {input};
  domain->exprs = outer;
  for (auto& a : outer) {
    ExprPtr named = alias(a, a->name);
    domain->aggregates.push_back(named);
    domain->output.push_back(to_attribute(named));
  }
  domain->aggregate_output_is_select_list = true;
  domain->resolved = true;
  std::vector<ExprPtr> on;
  for (auto& p : preds) on.push_back(replace_attributes(p, outer, domain->output));
  auto join = std::make_shared<PlanNode>();
  join->kind = PlanKind::kJoin;
  join->join_type = JoinType::kInner;
  join->children = {domain, below};
  join->condition = conjoin(on, conf);
  join->output = domain->output;
  join->output.insert(join->output.end(), below->output.begin(), below->output.end());
  join->resolved = true;
  inner_keys = domain->output;
  outer_keys = outer;
  return join;
}

/// CASE WHEN condition THEN then ELSE otherwise END, typed as `then` (both sides share a type).
ExprPtr case_when(const ExprPtr& condition, const ExprPtr& then, const ExprPtr& otherwise) {
  auto c = std::make_shared<Expr>();
  c->kind = ExprKind::kCaseWhen;
  c->has_else = true;
  c->type = then->type;
  c->nullable = true;
  c->children = {condition, then, otherwise};
  return c;
}

/// A correlated aggregate without grouping keys (`top`, whose input reads the enclosing query)
/// → the aggregate grouped by the correlation keys, left outer joined to `input` on them, so
/// that every input row keeps one row. Returns each aggregate output's value over the join:
/// null-safe for counts, which are 0, not null, for rows nothing matched (the COUNT bug).
std::vector<ExprPtr> aggregate_subquery_join(PlanPtr& input, const PlanPtr& top, const Config& conf) {
  for (auto& e : top->aggregates)
    if (has_outer_reference(e))
      throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.CORRELATED_REFERENCE",
                       "Unsupported subquery expression: Expressions referencing the outer query are "
                       "not supported outside of WHERE/HAVING clauses: \"" +
                           e->to_string() + "\".",
                       {{"sqlExprs", "\"" + e->to_string() + "\""}}, "0A000");
  auto [below, preds] = pull_up_correlated_predicates(top->children[0], conf);
  std::vector<ExprPtr> inner_keys, outer_keys;
  // Equalities group the aggregate by their inner side; any other correlated conjunct groups
  // it by the domain of the outer values instead, matched null-safely.
  const bool by_domain = split_equality_keys(preds, below, inner_keys, outer_keys) != nullptr;
  if (by_domain) below = domain_join(input, below, preds, inner_keys, outer_keys, conf, plan_tree_string(top));
  auto agg = std::make_shared<PlanNode>(*top);
  agg->children = {below};
  agg->exprs = inner_keys;
  agg->aggregates.clear();
  std::vector<ExprPtr> key_attrs;
  for (size_t i = 0; i < inner_keys.size(); ++i) {
    ExprPtr k = alias(inner_keys[i], "__key" + std::to_string(i));
    agg->aggregates.push_back(k);
    key_attrs.push_back(to_attribute(k));
  }
  for (auto& v : top->aggregates) agg->aggregates.push_back(v);
  ExprPtr matched = alias(lit(Value::boolean(true), DataType::boolean()), "__matched");
  agg->aggregates.push_back(matched);
  agg->aggregate_output_is_select_list = true;
  agg->output.clear();
  for (auto& e : agg->aggregates) agg->output.push_back(to_attribute(e));

  std::vector<ExprPtr> on;
  for (size_t i = 0; i < outer_keys.size(); ++i)
    on.push_back(resolved_call(by_domain ? "<=>" : "==", {outer_keys[i], key_attrs[i]}, conf));
  PlanPtr join = left_outer_join(input, agg, on, false, conf);
  input = join;

  const size_t first = join->output.size() - 1 - top->aggregates.size();
  std::vector<ExprPtr> values;
  for (size_t i = 0; i < top->aggregates.size(); ++i) {
    ExprPtr value = join->output[first + i];
    const ExprPtr& value_expr = top->aggregates[i];
    const ExprPtr& inner_value =
        value_expr->kind == ExprKind::kAlias ? value_expr->children[0] : value_expr;
    if (inner_value->kind == ExprKind::kAggregate && !is_count_like(inner_value)) {
      values.push_back(value);
      continue;
    }
    // COUNT bug: with no matching rows the subquery still yields its aggregate over no rows
    // (count(*) = 0), not null.
    values.push_back(case_when(resolved_call("isnull", {join->output.back()}, conf),
                               value_on_empty_input(inner_value), value));
  }
  return values;
}

/// A correlated `LIMIT n` over an ordered subquery, decorrelated as a top-n per outer row:
/// the rows of each value of the correlation keys numbered in the subquery's order, the first n
/// kept. Needs equality correlation and an ORDER BY (as the rows kept would be arbitrary).
Decorrelated decorrelate_limit(const PlanPtr& limit, const Config& conf) {
  PlanPtr child = limit->children[0];
  std::vector<ExprPtr> order;
  if (child->kind == PlanKind::kSort) {
    order = child->exprs;
    child = child->children[0];
  }
  for (auto& o : order)
    if (has_outer_reference(o)) unsupported_correlation(plan_tree_string(limit));
  if (order.empty()) unsupported_correlation(plan_tree_string(limit));
  Decorrelated d = pull_up_correlated_predicates(child, conf);
  std::vector<ExprPtr> inner_keys, outer_keys;
  split_correlation_keys(d.predicates, d.plan, inner_keys, outer_keys);
  ExprPtr rank = alias(resolve_window(resolve_window_function("row_number", {}, false), inner_keys,
                                      order, WindowFrame{}),
                       "__lateral_row");
  auto window = std::make_shared<PlanNode>();
  window->kind = PlanKind::kWindow;
  window->children = {d.plan};
  window->exprs = {rank};
  window->output = d.plan->output;
  window->output.push_back(to_attribute(rank));
  window->resolved = true;
  ExprPtr first_n = resolved_call(
      "<=", {window->output.back(), lit(Value::integer(limit->limit), window->output.back()->type)}, conf);
  d.plan = filter_node(window, first_n);
  return d;
}

/// CASE WHEN isnull(matched) THEN null ELSE value END: a value of the right side of a left
/// outer join, null for left rows nothing matched.
ExprPtr null_unless_matched(const ExprPtr& value, const ExprPtr& matched, const Config& conf) {
  return case_when(resolved_call("isnull", {matched}, conf), lit(Value(), value->type), value);
}

}  // namespace

ExprPtr transform_attributes(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f) {
  if (e->kind == ExprKind::kAttribute) return f(e);
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(transform_attributes(c, f));
    changed |= kids.back() != c;
  }
  return changed ? with_children(e, std::move(kids)) : e;
}

ExprPtr strip_outer_references(const ExprPtr& e) {
  if (e->kind == ExprKind::kOuterReference) {
    if (e->ordinal <= 1) return e->children[0];
    auto up = std::make_shared<Expr>(*e);
    up->ordinal = e->ordinal - 1;
    return up;
  }
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(strip_outer_references(c));
    changed |= kids.back() != c;
  }
  return changed ? with_children(e, std::move(kids)) : e;
}

bool has_outer_reference(const ExprPtr& e) {
  if (e->kind == ExprKind::kOuterReference) return true;
  for (auto& c : e->children)
    if (has_outer_reference(c)) return true;
  return e->filter && has_outer_reference(e->filter);
}

bool has_subquery(const ExprPtr& e) {
  if (e->kind == ExprKind::kSubquery) return true;
  for (auto& c : e->children)
    if (has_subquery(c)) return true;
  return false;
}

bool plan_is_correlated(const PlanPtr& plan) { return !outer_attributes(plan).empty(); }

std::string outer_reference_names(const PlanPtr& plan) {
  std::string s;
  for (auto& a : outer_attributes(plan)) s += (s.empty() ? "" : ", ") + a->name;
  return s;
}

ExprPtr resolved_call(const std::string& name, std::vector<ExprPtr> args, const Config& conf) {
  const functions::FunctionDef* def = functions::Registry::instance().find(name);
  EMBER_CHECK(def != nullptr, "resolved_call: no function " + name);
  std::vector<TypePtr> types;
  bool any_nullable = false;
  for (auto& a : args) {
    types.push_back(a->type);
    any_nullable |= a->nullable;
  }
  functions::Signature sig = def->type_rule(types, conf);
  auto n = std::make_shared<Expr>();
  n->kind = ExprKind::kCall;
  n->function = def;
  n->name = def->display == functions::Display::kCall ? def->name : "";
  n->type = sig.result_type;
  n->nullable = !sig.never_null && (any_nullable || sig.may_introduce_null);
  n->children = std::move(args);
  return n;
}

void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::kCall && e->function && e->function->name == "and" &&
      e->children.size() == 2) {
    split_conjuncts(e->children[0], out);
    split_conjuncts(e->children[1], out);
  } else {
    out.push_back(e);
  }
}

ExprPtr conjoin(const std::vector<ExprPtr>& parts, const Config& conf) {
  ExprPtr acc;
  for (auto& p : parts) acc = acc ? resolved_call("and", {acc, p}, conf) : p;
  return acc;
}

PlanPtr project_to(const PlanPtr& child, const std::vector<ExprPtr>& output) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kProject;
  n->children = {child};
  n->exprs = output;
  n->output = output;
  n->resolved = true;
  return n;
}

PlanPtr filter_node(const PlanPtr& child, ExprPtr condition) {
  auto f = std::make_shared<PlanNode>();
  f->kind = PlanKind::kFilter;
  f->condition = std::move(condition);
  f->output = child->output;
  f->resolved = true;
  f->children = {child};
  return f;
}

Decorrelated pull_up_correlated_predicates(const PlanPtr& subquery, const Config& conf) {
  Decorrelated d;
  d.plan = pull(subquery, d.predicates, conf);
  return d;
}

PlanPtr predicate_subquery_join(const PlanPtr& input, const ExprPtr& subquery, JoinType kind,
                                bool null_aware, const ExprPtr& mark, const Config& conf) {
  auto [right, conds] = pull_up_correlated_predicates(subquery->subquery, conf);
  if (subquery->subquery_kind == SubqueryKind::kIn) {
    std::vector<ExprPtr> eqs;
    bool nullable = false;
    for (size_t i = 0; i < subquery->children.size(); ++i) {
      const ExprPtr& l = subquery->children[i];
      const ExprPtr& r = right->output[i];
      eqs.push_back(resolved_call("==", {l, r}, conf));
      nullable |= l->nullable || r->nullable;
    }
    ExprPtr eq = conjoin(eqs, conf);
    // NOT IN: a row is out when some comparison is true or unknown.
    if (null_aware && nullable)
      eq = resolved_call("or", {eq, resolved_call("isnull", {eq}, conf)}, conf);
    conds.push_back(eq);
  } else if (conds.empty()) {
    // An uncorrelated EXISTS needs one row at most.
    auto limit = std::make_shared<PlanNode>();
    limit->kind = PlanKind::kLimit;
    limit->limit = 1;
    limit->children = {right};
    limit->output = right->output;
    limit->resolved = true;
    right = limit;
  }
  auto join = std::make_shared<PlanNode>();
  join->kind = PlanKind::kJoin;
  join->join_type = kind;
  join->children = {input, right};
  join->condition = conds.empty() ? nullptr : conjoin(conds, conf);
  join->output = input->output;
  if (kind == JoinType::kExistence) {
    join->exprs = {mark};
    join->output.push_back(mark);
  }
  join->resolved = true;
  return join;
}

ExprPtr rewrite_subquery_expressions(const ExprPtr& e, PlanPtr& input, const Config& conf,
                                     bool predicates,
                                     const std::function<PlanPtr(const PlanPtr&)>& rewrite_nested) {
  auto nested = [&](const ExprPtr& sq) {
    PlanPtr q = rewrite_nested(sq->subquery);
    if (q == sq->subquery) return sq;
    auto c = std::make_shared<Expr>(*sq);
    c->subquery = q;
    return ExprPtr(c);
  };
  auto existence = [&](const ExprPtr& sq, bool null_aware) {
    ExprPtr mark = attribute("exists", DataType::boolean(), false, new_expr_id());
    input = predicate_subquery_join(input, sq, JoinType::kExistence, null_aware, mark, conf);
    return mark;
  };
  bool negated_in = e->kind == ExprKind::kCall && e->function && e->function->name == "not" &&
                    e->children[0]->kind == ExprKind::kSubquery &&
                    e->children[0]->subquery_kind == SubqueryKind::kIn;
  if (predicates && negated_in)
    return resolved_call("not", {existence(nested(e->children[0]), true)}, conf);
  if (e->kind == ExprKind::kSubquery) {
    std::vector<ExprPtr> kids;
    for (auto& c : e->children)
      kids.push_back(rewrite_subquery_expressions(c, input, conf, predicates, rewrite_nested));
    ExprPtr sq = nested(kids == e->children ? e : with_children(e, kids));
    if (sq->subquery_kind == SubqueryKind::kScalar) {
      if (predicates || !plan_is_correlated(sq->subquery)) return sq;
      return scalar_subquery_join(input, sq->subquery, conf);
    }
    return predicates ? existence(sq, false) : sq;
  }
  if (!has_subquery(e)) return e;
  std::vector<ExprPtr> kids;
  for (auto& c : e->children)
    kids.push_back(rewrite_subquery_expressions(c, input, conf, predicates, rewrite_nested));
  return with_children(e, std::move(kids));
}

namespace {

/// Whether `p` is a Generate over one row without columns (a table function's rows, a
/// generator in a select list without FROM) whose generator reads the outer query.
bool is_correlated_generate_over_one_row(const PlanPtr& p) {
  if (p->kind != PlanKind::kGenerate || p->children.size() != 1) return false;
  PlanPtr c = p->children[0];
  if (c->kind == PlanKind::kProject && c->output.empty() && c->children.size() == 1) c = c->children[0];
  const bool one_row =
      (c->kind == PlanKind::kRange && c->range_start == 0 && c->range_end == 1 && c->range_step == 1) ||
      (c->kind == PlanKind::kLocalRelation && c->output.empty() && c->batches.size() == 1 &&
       c->batches[0].num_rows == 1);
  // The row's own columns (a Range's id) are never read above it: a select list without FROM
  // cannot name them.
  if (!one_row) return false;
  for (auto& e : p->exprs)
    if (has_outer_reference(e)) return true;
  return false;
}

/// A Generate over one row whose generator reads columns of `left`, decorrelated as Spark's
/// DecorrelateInnerQuery does with a domain join: the generator runs over the distinct values
/// of the outer columns it reads (`d`), and the join matches each left row to the rows of its
/// own values by null-safe equality.
Decorrelated decorrelate_generate(const PlanPtr& generate, const PlanPtr& left, const Config& conf) {
  std::vector<ExprPtr> outer = outer_attributes(generate);
  for (auto& a : outer) {
    bool from_left = false;
    for (auto& o : left->output) from_left |= o->expr_id == a->expr_id;
    if (!from_left) unsupported_correlation(plan_tree_string(generate));
  }
  auto domain = std::make_shared<PlanNode>();
  domain->kind = PlanKind::kAggregate;
  domain->children = {left};
  domain->exprs = outer;
  std::vector<ExprPtr> values;
  for (auto& a : outer) {
    ExprPtr named = alias(a, a->name);
    domain->aggregates.push_back(named);
    domain->output.push_back(to_attribute(named));
  }
  domain->resolved = true;
  auto gen = std::make_shared<PlanNode>(*generate);
  gen->children = {domain};
  for (auto& e : gen->exprs)
    e = replace_attributes(strip_outer_references(e), outer, domain->output);
  gen->output = domain->output;
  gen->output.insert(gen->output.end(), generate->generator_output.begin(), generate->generator_output.end());
  Decorrelated d;
  d.plan = gen;
  for (size_t i = 0; i < outer.size(); ++i)
    d.predicates.push_back(resolved_call("<=>", {outer[i], domain->output[i]}, conf));
  return d;
}

}  // namespace

PlanPtr lateral_join(const PlanPtr& left, const PlanPtr& right, JoinType type,
                     const ExprPtr& condition, const Config& conf, bool single_match) {
  const bool outer = type == JoinType::kLeftOuter;
  const std::vector<ExprPtr>& sub = right->output;
  // The projections on top of the subquery, down to the lowest one that reads the left side,
  // are computed above the join: `values` are the subquery's columns over what lies below them
  // (and outer references).
  std::vector<PlanPtr> chain;
  PlanPtr base = right;
  while (base->kind == PlanKind::kProject || base->kind == PlanKind::kSubqueryAlias) {
    chain.push_back(base);
    base = base->children[0];
  }
  size_t lifted = 0;
  for (size_t i = 0; i < chain.size(); ++i)
    if (chain[i]->kind == PlanKind::kProject)
      for (auto& e : chain[i]->exprs)
        if (has_outer_reference(e)) lifted = i + 1;
  const bool keyless_aggregate = base->kind == PlanKind::kAggregate && base->exprs.empty() &&
                                 base->grouping_sets.empty() && plan_is_correlated(base);
  const bool correlated_limit = base->kind == PlanKind::kLimit && plan_is_correlated(base);
  const bool correlated_generate = is_correlated_generate_over_one_row(base);
  if (keyless_aggregate || correlated_limit || correlated_generate) lifted = chain.size();
  else if (lifted == 0) base = right;
  else base = chain[lifted - 1]->children[0];
  std::vector<ExprPtr> values = sub;
  for (size_t i = 0; i < lifted; ++i) {
    if (chain[i]->kind != PlanKind::kProject) continue;
    std::vector<ExprPtr> exprs;
    for (auto& e : chain[i]->exprs) {
      if (contains_window(e)) unsupported_correlation(plan_tree_string(chain[i]));
      exprs.push_back(e->kind == ExprKind::kAlias ? e->children[0] : e);
    }
    for (auto& v : values) v = replace_attributes(v, chain[i]->output, exprs);
  }
  for (auto& v : values) v = strip_outer_references(v);

  PlanPtr joined = left;
  std::vector<ExprPtr> raw;  // per column of `right`, over the join's inputs
  if (keyless_aggregate) {
    // An aggregate without keys yields one row for each left row.
    std::vector<ExprPtr> aggregated = aggregate_subquery_join(joined, base, conf);
    for (auto& v : values) raw.push_back(replace_attributes(v, base->output, aggregated));
    values = raw;
    if (condition && outer) {
      ExprPtr keep = replace_attributes(condition, sub, raw);
      for (auto& v : values) {
        v = case_when(keep, v, lit(Value(), v->type));
      }
    }
  } else {
    // The subquery's correlated conjuncts become the join condition.
    Decorrelated d = correlated_limit      ? decorrelate_limit(base, conf)
                     : correlated_generate ? decorrelate_generate(base, left, conf)
                                           : pull_up_correlated_predicates(base, conf);
    PlanPtr r = d.plan;
    ExprPtr matched;
    if (outer && lifted > 0) {
      // Marks the right rows, so that values computed above the join are null without a match.
      std::vector<ExprPtr> cols = r->output;
      cols.push_back(alias(lit(Value::boolean(true), DataType::boolean()), "__lateral_matched"));
      auto marked = std::make_shared<PlanNode>();
      marked->kind = PlanKind::kProject;
      marked->children = {r};
      marked->exprs = cols;
      for (auto& c : cols) marked->output.push_back(to_attribute(c));
      marked->resolved = true;
      r = marked;
      auto m = std::make_shared<Expr>(*r->output.back());
      m->nullable = true;
      matched = m;
    }
    raw = values;
    std::vector<ExprPtr> conds = d.predicates;
    if (condition && outer) conds.push_back(replace_attributes(condition, sub, raw));
    auto join = std::make_shared<PlanNode>();
    join->kind = PlanKind::kJoin;
    join->join_type = outer ? JoinType::kLeftOuter : JoinType::kInner;
    join->single_match = single_match;
    join->children = {left, r};
    join->condition = conds.empty() ? nullptr : conjoin(conds, conf);
    join->output = left->output;
    for (auto& a : r->output) {
      auto c = std::make_shared<Expr>(*a);
      c->nullable = c->nullable || outer;
      join->output.push_back(c);
    }
    join->resolved = true;
    joined = join;
    values.clear();
    for (auto& v : raw) {
      // Read the join's form of the right side's columns (nullable after a left outer join).
      ExprPtr over_join = transform_attributes(v, [&](const ExprPtr& a) {
        for (auto& o : join->output)
          if (o->expr_id == a->expr_id) return o;
        return a;
      });
      values.push_back(matched ? null_unless_matched(over_join, matched, conf) : over_join);
    }
  }

  // The join's output: the left side's columns, then the subquery's, under their own ids.
  auto out = std::make_shared<PlanNode>();
  out->kind = PlanKind::kProject;
  out->children = {joined};
  out->exprs = left->output;
  out->output = left->output;
  for (size_t i = 0; i < sub.size(); ++i) {
    auto a = std::make_shared<Expr>(*sub[i]);
    a->nullable = sub[i]->nullable || outer;
    if (values[i]->kind == ExprKind::kAttribute && values[i]->expr_id == sub[i]->expr_id) {
      out->exprs.push_back(values[i]);
    } else {
      out->exprs.push_back(alias(values[i], sub[i]->name, sub[i]->expr_id));
    }
    out->output.push_back(a);
  }
  out->resolved = true;
  if (condition && !outer) return filter_node(out, condition);
  return out;
}

namespace {

/// Correlated scalar subquery → a left outer lateral join of `input` with it, each row of
/// `input` matching one row at most: an aggregate without keys is grouped by the correlation
/// keys (or their domain), projections that read the outer query are computed above the join,
/// and other subqueries join on their correlated conjuncts. Returns the expression that
/// replaces the subquery.
ExprPtr scalar_subquery_join(PlanPtr& input, const PlanPtr& query, const Config& conf) {
  const size_t width = input->output.size();
  input = lateral_join(input, query, JoinType::kLeftOuter, nullptr, conf, true);
  return input->output[width];
}

}  // namespace

void collect_attribute_ids(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  for (auto& c : e->children) collect_attribute_ids(c, out);
}

bool refs_subset(const ExprPtr& e, const std::set<int64_t>& ids) {
  std::set<int64_t> refs;
  collect_attribute_ids(e, refs);
  for (int64_t r : refs)
    if (!ids.count(r)) return false;
  return true;
}

}  // namespace ember::plan
