// RewriteCollationKeys: where the plan compares strings of a collation other than UTF8_BINARY
// (types/collation.h), it compares their collation keys instead, so that every operator keeps
// comparing bytes:
//  - comparisons (=, <=>, <, <=, >, >=; IN is made of =) read collationkey(a), collationkey(b),
//    and so do join conditions, which makes the keys the hash join's keys (contains, startswith
//    and endswith search the collated texts themselves, functions/collation_search.h);
//  - an aggregate groups by collationkey(k) and outputs first(k), one of the group's strings
//    (Spark's too: the first its hash table saw); COUNT(DISTINCT k) counts distinct keys;
//  - sorts, dropDuplicates and window partitions and orders use the keys;
//  - min / max of a collated string are the min_by / max_by of its key.
// It runs right after the subquery rewrites, before the rules that move filters into scans, and
// cannot be excluded: without it collated strings would compare as bytes.

#include <map>
#include <set>

#include "plan/collation_resolution.h"
#include "plan/analyzer.h"
#include "plan/optimizer.h"
#include "plan/subquery.h"

namespace ember::plan {
namespace {

bool is_collated(const ExprPtr& e) { return e->type && e->type->is_collated_string(); }

const std::set<std::string>& comparisons() {
  static const std::set<std::string> names = {"==", "<=>", "<", "<=", ">", ">="};
  return names;
}

ExprPtr aggregate_call(const char* name, std::vector<ExprPtr> args, const TypePtr& type) {
  const functions::FunctionDef* def = functions::Registry::instance().find(name);
  EMBER_CHECK(def != nullptr, std::string("missing aggregate ") + name);
  auto n = std::make_shared<Expr>();
  n->kind = ExprKind::kAggregate;
  n->function = def;
  n->name = def->name;
  n->type = type;
  n->nullable = true;
  n->children = std::move(args);
  return n;
}

/// The expression with its comparisons, window specifications and aggregate calls over
/// collated strings reading their keys.
ExprPtr rewrite_expr(const ExprPtr& root) {
  return transform_expr_up(root, [](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kCall && e->function && comparisons().count(e->function->name) &&
        e->children.size() == 2 && (is_collated(e->children[0]) || is_collated(e->children[1]))) {
      auto n = std::make_shared<Expr>(*e);
      if (n->display.empty()) n->display = e->to_string();  // the name stays the comparison's
      n->children = {collation_key(e->children[0]), collation_key(e->children[1])};
      return n;
    }
    if (e->kind == ExprKind::kAggregate && e->function && !e->children.empty() && is_collated(e->children[0])) {
      const std::string& fn = e->function->name;
      if ((fn == "min" || fn == "max") && e->children.size() == 1) {
        ExprPtr by = aggregate_call(fn == "min" ? "min_by" : "max_by",
                                    {e->children[0], collation_key(e->children[0])}, e->type);
        auto n = std::make_shared<Expr>(*by);
        n->display = e->to_string();
        n->filter = e->filter;
        return n;
      }
      if (fn == "count" && e->distinct) {
        auto n = std::make_shared<Expr>(*e);
        if (n->display.empty()) n->display = e->to_string();
        for (auto& c : n->children) c = collation_key(c);
        return n;
      }
    }
    if (e->kind == ExprKind::kWindow) {
      bool any = false;
      for (auto& p : e->partition_by) any |= is_collated(p);
      for (auto& o : e->order_by) any |= is_collated(o->children[0]);
      if (!any) return e;
      auto n = std::make_shared<Expr>(*e);
      if (n->display.empty()) n->display = e->to_string();
      for (auto& p : n->partition_by) p = collation_key(p);
      for (auto& o : n->order_by)
        if (is_collated(o->children[0])) o = with_children(o, {collation_key(o->children[0])});
      return n;
    }
    return e;
  });
}

/// An aggregate grouped by collated strings groups by their keys; its outputs read first(k)
/// where they read the grouping expression k.
PlanPtr rewrite_aggregate(const PlanPtr& node) {
  bool any = false;
  for (auto& g : node->exprs) any |= is_collated(g);
  if (!any) return node;
  std::map<std::string, ExprPtr> firsts;  // semantic key of a grouping expression -> first(g)
  auto copy = std::make_shared<PlanNode>(*node);
  for (auto& g : copy->exprs) {
    if (!is_collated(g)) continue;
    firsts[semantic_key(g)] = aggregate_call("first", {g}, g->type);
    g = collation_key(g);
  }
  std::function<ExprPtr(const ExprPtr&)> outside_aggregates = [&](const ExprPtr& e) -> ExprPtr {
    if (e->kind == ExprKind::kAggregate || e->kind == ExprKind::kWindow) return e;
    if (e->kind != ExprKind::kAlias) {
      auto it = firsts.find(semantic_key(e));
      if (it != firsts.end()) return it->second;
    }
    std::vector<ExprPtr> kids;
    bool changed = false;
    for (auto& c : e->children) {
      kids.push_back(outside_aggregates(c));
      changed |= kids.back() != c;
    }
    return changed ? with_children(e, std::move(kids)) : e;
  };
  copy->output.clear();
  for (auto& out : copy->aggregates) {
    ExprPtr r = outside_aggregates(out);
    // A grouping attribute that was an output of its own keeps its name and id.
    if (r != out && out->kind == ExprKind::kAttribute) r = alias(r, out->name, out->expr_id);
    out = r;
    copy->output.push_back(to_attribute(out));
  }
  return copy;
}

class RewriteCollationKeys final : public Rule {
 public:
  const char* name() const override { return "RewriteCollationKeys"; }
  bool excludable() const override { return false; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
      PlanPtr n = node;
      if (n->kind == PlanKind::kAggregate) n = rewrite_aggregate(n);
      if (n->kind == PlanKind::kSort) {
        bool any = false;
        for (auto& o : n->exprs) any |= is_collated(o->children[0]);
        if (any) {
          auto copy = std::make_shared<PlanNode>(*n);
          for (auto& o : copy->exprs)
            if (is_collated(o->children[0])) o = with_children(o, {collation_key(o->children[0])});
          n = copy;
        }
      }
      if (n->kind == PlanKind::kDistinct && !n->exprs.empty()) {
        bool any = false;
        for (auto& k : n->exprs) any |= is_collated(k);
        if (any) {
          auto copy = std::make_shared<PlanNode>(*n);
          for (auto& k : copy->exprs) k = collation_key(k);
          n = copy;
        }
      }
      return map_expressions(n, rewrite_expr);
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_rewrite_collation_keys() { return std::make_unique<RewriteCollationKeys>(); }

}  // namespace ember::plan
