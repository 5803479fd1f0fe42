#include "plan/plan_equivalence.h"

#include <functional>
#include <map>
#include <unordered_map>

#include "functions/function.h"

namespace ember::plan {
namespace {

bool known_expr_kind(ExprKind k) {
  switch (k) {
    case ExprKind::kLiteral:
    case ExprKind::kAlias:
    case ExprKind::kCast:
    case ExprKind::kSortOrder:
    case ExprKind::kAttribute:
    case ExprKind::kCall:
    case ExprKind::kAggregate:
    case ExprKind::kCaseWhen:
    case ExprKind::kIf:
    case ExprKind::kCoalesce:
    case ExprKind::kGetField:
    case ExprKind::kWindow:
    case ExprKind::kWindowFunction:
    case ExprKind::kGenerator:
    case ExprKind::kLambda:
    case ExprKind::kLambdaVariable:
      return true;
    default:
      return false;  // unresolved forms, subqueries, outer references
  }
}

bool known_plan_kind(PlanKind k) {
  switch (k) {
    case PlanKind::kRange:
    case PlanKind::kLocalRelation:
    case PlanKind::kRead:
    case PlanKind::kEmpty:
    case PlanKind::kProject:
    case PlanKind::kFilter:
    case PlanKind::kAggregate:
    case PlanKind::kSort:
    case PlanKind::kLimit:
    case PlanKind::kOffset:
    case PlanKind::kTail:
    case PlanKind::kDistinct:
    case PlanKind::kSubqueryAlias:
    case PlanKind::kSample:
    case PlanKind::kRepartition:
    case PlanKind::kHint:
    case PlanKind::kJoin:
    case PlanKind::kSetOp:
    case PlanKind::kWindow:
    case PlanKind::kGenerate:
      return true;
    default:
      return false;
  }
}

bool same_type(const TypePtr& a, const TypePtr& b) {
  if (!a || !b) return !a && !b;
  return a->equals(*b);
}

/// `same_result`: nondeterministic calls compare like any other (plans_same_result).
bool expr_comparable(const ExprPtr& e, bool same_result) {
  if (!e) return true;
  if (!known_expr_kind(e->kind) || e->subquery) return false;
  if (e->function && !e->function->deterministic && !same_result) return false;
  for (auto& c : e->children)
    if (!expr_comparable(c, same_result)) return false;
  for (auto& c : e->partition_by)
    if (!expr_comparable(c, same_result)) return false;
  for (auto& c : e->order_by)
    if (!expr_comparable(c, same_result)) return false;
  return expr_comparable(e->filter, same_result);
}

bool plan_comparable(const PlanPtr& p, bool same_result) {
  if (!p || !known_plan_kind(p->kind) || !p->grouping_sets.empty()) return false;
  for (auto* list : {&p->exprs, &p->aggregates})
    for (auto& e : *list)
      if (!expr_comparable(e, same_result)) return false;
  if (!expr_comparable(p->condition, same_result)) return false;
  for (auto& c : p->children)
    if (!plan_comparable(c, same_result)) return false;
  return true;
}

/// Whether two reads scan the same files the same way (plans_same_result): the reader objects
/// differ between two analyses of one DataFrame.
bool same_read(const PlanNode& x, const PlanNode& y) {
  const io::ReadRequest& a = x.read;
  const io::ReadRequest& b = y.read;
  if (a.format != b.format || a.paths != b.paths || a.options.all() != b.options.all() ||
      !same_type(a.user_schema, b.user_schema) || !x.reader || !y.reader)
    return false;
  const Schema& sa = x.reader->schema();
  const Schema& sb = y.reader->schema();
  if (sa.size() != sb.size()) return false;
  for (size_t i = 0; i < sa.size(); ++i)
    if (sa[i].name != sb[i].name || !same_type(sa[i].type, sb[i].type) ||
        sa[i].nullable != sb[i].nullable)
      return false;
  return true;
}

/// Whether two local relations hold the same rows: the same columns (one relation copied
/// through a plan) or, for plans_same_result, equal values (the same client data sent twice).
bool same_local_rows(const PlanNode& x, const PlanNode& y, bool same_result) {
  if (x.cached || y.cached) return x.cached == y.cached;
  if (x.batches.size() != y.batches.size()) return false;
  for (size_t i = 0; i < x.batches.size(); ++i) {
    const Batch& a = x.batches[i];
    const Batch& b = y.batches[i];
    if (a.num_rows != b.num_rows || a.columns.size() != b.columns.size()) return false;
    if (a.columns == b.columns) continue;
    if (!same_result) return false;
    for (size_t c = 0; c < a.columns.size(); ++c) {
      if (a.columns[c] == b.columns[c]) continue;
      if (!same_type(a.columns[c]->type(), b.columns[c]->type())) return false;
      for (int64_t r = 0; r < a.num_rows; ++r)
        if (!(a.columns[c]->value_at(r) == b.columns[c]->value_at(r))) return false;
    }
  }
  return true;
}

/// Walks two plans in lockstep, pairing the attribute ids of one with those of the other: a
/// pairing, once made, must hold everywhere (a one-to-one renaming).
class Matcher {
 public:
  explicit Matcher(bool same_result) : same_result_(same_result) {}

  bool plans(const PlanPtr& a, const PlanPtr& b) {
    if (a == b) return ids_of_same(a);
    if (!a || !b) return false;
    const PlanNode& x = *a;
    const PlanNode& y = *b;
    if (x.kind != y.kind || !known_plan_kind(x.kind) || x.children.size() != y.children.size())
      return false;
    for (size_t i = 0; i < x.children.size(); ++i)
      if (!plans(x.children[i], y.children[i])) return false;
    if (!x.grouping_sets.empty() || !y.grouping_sets.empty()) return false;
    if (!lists(x.exprs, y.exprs) || !lists(x.aggregates, y.aggregates) ||
        !exprs(x.condition, y.condition) || !lists(x.generator_output, y.generator_output) ||
        !lists(x.output, y.output))
      return false;
    if (x.aggregate_output_is_select_list != y.aggregate_output_is_select_list ||
        x.range_start != y.range_start || x.range_end != y.range_end ||
        x.range_step != y.range_step || x.num_partitions != y.num_partitions || x.limit != y.limit || x.is_global != y.is_global ||
        x.dedup_columns != y.dedup_columns || x.dedup_all != y.dedup_all || x.lower != y.lower ||
        x.upper != y.upper || x.with_replacement != y.with_replacement || x.seed != y.seed ||
        x.sample_sorted_input != y.sample_sorted_input || x.join_type != y.join_type ||
        x.single_match != y.single_match || x.set_op != y.set_op || x.is_all != y.is_all ||
        x.by_name != y.by_name || x.allow_missing != y.allow_missing)
      return false;
    if (x.kind == PlanKind::kRead) {
      if (same_result_) return same_read(x, y);
      return x.reader != nullptr && x.reader == y.reader && x.table_name == y.table_name;
    }
    if (x.kind == PlanKind::kLocalRelation) return same_local_rows(x, y, same_result_);
    return true;
  }

 private:
  /// A plan compared with itself: still pair its ids with themselves, so that a renaming seen
  /// elsewhere cannot contradict it.
  bool ids_of_same(const PlanPtr& p) {
    if (!p) return true;
    if (!plan_comparable(p, same_result_)) return false;
    std::function<bool(const PlanPtr&)> walk = [&](const PlanPtr& n) {
      for (auto& c : n->children)
        if (!walk(c)) return false;
      for (auto& a : n->output)
        if (!ids(a->expr_id, a->expr_id)) return false;
      for (auto* list : {&n->exprs, &n->aggregates, &n->generator_output})
        for (auto& e : *list)
          if (!exprs(e, e)) return false;
      return exprs(n->condition, n->condition);
    };
    return walk(p);
  }

  bool ids(int64_t a, int64_t b) {
    if (a < 0 || b < 0) return a == b;
    auto ia = ab_.find(a);
    auto ib = ba_.find(b);
    if (ia == ab_.end() && ib == ba_.end()) {
      ab_[a] = b;
      ba_[b] = a;
      return true;
    }
    return ia != ab_.end() && ib != ba_.end() && ia->second == b && ib->second == a;
  }

  bool lists(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!exprs(a[i], b[i])) return false;
    return true;
  }

  bool exprs(const ExprPtr& a, const ExprPtr& b) {
    if (!a || !b) return !a && !b;
    const Expr& x = *a;
    const Expr& y = *b;
    if (x.kind != y.kind || !known_expr_kind(x.kind) || x.subquery || y.subquery) return false;
    if (x.function != y.function || (x.function && !x.function->deterministic && !same_result_))
      return false;
    // A random call without its seed (rand() in SQL) draws one when it runs, so two of them
    // differ, as two analyses of it in Spark draw different seeds. One expression read twice
    // (a view's plan) is still itself.
    if (x.function && !x.function->deterministic && a != b &&
        static_cast<int>(x.children.size()) < x.function->max_args)
      return false;
    if (!same_type(x.type, y.type) || x.nullable != y.nullable || !ids(x.expr_id, y.expr_id))
      return false;
    // Names of attributes and aliases only label columns; everywhere else they are semantics
    // (window function names, generator kinds).
    if (x.kind != ExprKind::kAttribute && x.kind != ExprKind::kAlias && x.name != y.name)
      return false;
    if (x.kind == ExprKind::kLiteral && !(x.value == y.value)) return false;
    if (x.distinct != y.distinct || x.try_ != y.try_ || x.ascending != y.ascending ||
        x.nulls_first != y.nulls_first || x.has_else != y.has_else ||
        x.ignore_nulls != y.ignore_nulls || x.outer != y.outer || x.ordinal != y.ordinal ||
        x.metadata_json != y.metadata_json)
      return false;
    const WindowFrame& f = x.frame;
    const WindowFrame& g = y.frame;
    if (f.type != g.type || f.lower != g.lower || f.upper != g.upper ||
        f.value_bounds != g.value_bounds)
      return false;
    return lists(x.children, y.children) && exprs(x.filter, y.filter) &&
           lists(x.partition_by, y.partition_by) && lists(x.order_by, y.order_by);
  }

  const bool same_result_;
  std::unordered_map<int64_t, int64_t> ab_, ba_;
};

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

size_t expr_shape_hash(const ExprPtr& e) {
  if (!e) return 1;
  size_t h = std::hash<int>()(static_cast<int>(e->kind));
  if (e->kind != ExprKind::kAttribute && e->kind != ExprKind::kAlias)
    h = mix(h, std::hash<std::string>()(e->name));
  if (e->function) h = mix(h, std::hash<const void*>()(e->function));
  for (auto& c : e->children) h = mix(h, expr_shape_hash(c));
  return h;
}

}  // namespace

bool plan_comparable(const PlanPtr& p) { return plan_comparable(p, false); }

bool plans_equivalent(const PlanPtr& a, const PlanPtr& b) { return Matcher(false).plans(a, b); }

bool plans_same_result(const PlanPtr& a, const PlanPtr& b) { return Matcher(true).plans(a, b); }

size_t plan_shape_hash(const PlanPtr& p) {
  size_t h = std::hash<int>()(static_cast<int>(p->kind));
  h = mix(h, static_cast<size_t>(p->join_type));
  h = mix(h, p->output.size());
  for (auto* list : {&p->exprs, &p->aggregates})
    for (auto& e : *list) h = mix(h, expr_shape_hash(e));
  h = mix(h, expr_shape_hash(p->condition));
  for (auto& c : p->children) h = mix(h, plan_shape_hash(c));
  return h;
}

std::vector<std::vector<PlanPtr>> repeated_subplans(const PlanPtr& root) {
  std::map<const PlanNode*, bool> costly_memo;
  std::function<bool(const PlanPtr&)> costly = [&](const PlanPtr& n) {
    auto it = costly_memo.find(n.get());
    if (it != costly_memo.end()) return it->second;
    bool c = n->kind == PlanKind::kJoin || n->kind == PlanKind::kAggregate || n->kind == PlanKind::kWindow ||
             n->kind == PlanKind::kSort || n->kind == PlanKind::kSetOp;
    for (auto& k : n->children) c = costly(k) || c;
    return costly_memo[n.get()] = c;
  };
  std::map<size_t, std::vector<size_t>> by_hash;
  std::vector<std::vector<PlanPtr>> found;
  std::function<void(const PlanPtr&)> visit = [&](const PlanPtr& n) {
    if (n->kind != PlanKind::kSubqueryAlias && costly(n) && plan_comparable(n)) {
      size_t h = plan_shape_hash(n);
      for (size_t g : by_hash[h])
        if (plans_equivalent(found[g][0], n)) {
          found[g].push_back(n);
          return;
        }
      by_hash[h].push_back(found.size());
      found.push_back({n});
    }
    for (auto& c : n->children) visit(c);
  };
  visit(root);
  std::vector<std::vector<PlanPtr>> repeated;
  for (auto& members : found)
    if (members.size() > 1) repeated.push_back(std::move(members));
  return repeated;
}

}  // namespace ember::plan
