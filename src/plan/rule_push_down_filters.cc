// PushDownFilters: moves filters towards the scans — combines adjacent filters, pushes a filter
// below a projection (substituting the projection's aliases) when both are deterministic, and
// below sorts, repartitions and aliases, so that scans and joins see fewer rows. Into joins:
// conjuncts that read one side go below the join where the join type allows it, conjuncts
// that read both sides of an inner (or cross) join become its join condition, and an inner
// join's own single-side conditions move into its inputs — so `FROM a, b WHERE a.k = b.k`
// becomes a hash join instead of a cross product.

#include <map>
#include <set>

#include "functions/function.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

bool deterministic_list(const std::vector<ExprPtr>& es) {
  for (auto& e : es)
    if (!e->deterministic()) return false;
  return true;
}

PlanPtr with_child(const PlanPtr& node, PlanPtr child) {
  auto copy = std::make_shared<PlanNode>(*node);
  copy->children = {std::move(child)};
  return copy;
}

PlanPtr make_filter(ExprPtr condition, PlanPtr child) {
  auto f = std::make_shared<PlanNode>();
  f->kind = PlanKind::kFilter;
  f->condition = std::move(condition);
  f->output = child->output;
  f->resolved = true;
  f->children = {std::move(child)};
  return f;
}

void split_and(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::kCall && e->function && e->function->name == "and" && e->children.size() == 2) {
    split_and(e->children[0], out);
    split_and(e->children[1], out);
  } else {
    out.push_back(e);
  }
}

ExprPtr conjunction(const std::vector<ExprPtr>& parts) {
  ExprPtr acc;
  for (auto& p : parts) {
    if (!acc) {
      acc = p;
      continue;
    }
    auto a = std::make_shared<Expr>();
    a->kind = ExprKind::kCall;
    a->function = functions::Registry::instance().find("and");
    a->type = DataType::boolean();
    a->nullable = acc->nullable || p->nullable;
    a->children = {acc, p};
    acc = a;
  }
  return acc;
}

void referenced_ids(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  for (auto& c : e->children) referenced_ids(c, out);
}

bool within(const ExprPtr& e, const PlanPtr& side) {
  std::set<int64_t> refs;
  referenced_ids(e, refs);
  std::set<int64_t> ids;
  for (auto& a : side->output) ids.insert(a->expr_id);
  for (int64_t r : refs)
    if (!ids.count(r)) return false;
  return true;
}

class PushDownFilters final : public Rule {
 public:
  const char* name() const override { return "PushDownFilters"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [&](const PlanPtr& node) { return push(node); });
  }

 private:
  /// A join with `extra` conjuncts (from a filter above, or its own condition when
  /// `extra_are_own`) placed: below on one side, into the condition, or left over (returned in
  /// `rest`, to stay above).
  PlanPtr place_into_join(const PlanPtr& join, const std::vector<ExprPtr>& extra, std::vector<ExprPtr>& rest) const {
    const JoinType jt = join->join_type;
    const bool inner = jt == JoinType::kInner || jt == JoinType::kCross;
    const bool to_left = inner || jt == JoinType::kLeftOuter || jt == JoinType::kLeftSemi || jt == JoinType::kLeftAnti ||
                         jt == JoinType::kExistence;
    const bool to_right = inner || jt == JoinType::kRightOuter;
    const PlanPtr& left = join->children[0];
    const PlanPtr& right = join->children[1];
    std::vector<ExprPtr> lf, rf, jc;
    for (auto& c : extra) {
      if (!c->deterministic()) rest.push_back(c);
      else if (to_left && within(c, left)) lf.push_back(c);
      else if (to_right && within(c, right)) rf.push_back(c);
      else if (inner) jc.push_back(c);
      else rest.push_back(c);
    }
    if (lf.empty() && rf.empty() && jc.empty()) return join;
    auto copy = std::make_shared<PlanNode>(*join);
    if (!lf.empty()) copy->children[0] = push(make_filter(conjunction(lf), left));
    if (!rf.empty()) copy->children[1] = push(make_filter(conjunction(rf), right));
    if (!jc.empty()) {
      if (join->condition) jc.insert(jc.begin(), join->condition);
      copy->condition = conjunction(jc);
      if (jt == JoinType::kCross) copy->join_type = JoinType::kInner;
    }
    return copy;
  }

  /// An inner join's own conjuncts that read one side only move into that side.
  PlanPtr push_join_condition(const PlanPtr& join) const {
    if (!(join->join_type == JoinType::kInner || join->join_type == JoinType::kCross) || !join->condition) return join;
    std::vector<ExprPtr> parts, keep;
    split_and(join->condition, parts);
    std::vector<ExprPtr> lf, rf;
    for (auto& c : parts) {
      if (!c->deterministic()) keep.push_back(c);
      else if (within(c, join->children[0])) lf.push_back(c);
      else if (within(c, join->children[1])) rf.push_back(c);
      else keep.push_back(c);
    }
    if (lf.empty() && rf.empty()) return join;
    auto copy = std::make_shared<PlanNode>(*join);
    if (!lf.empty()) copy->children[0] = push(make_filter(conjunction(lf), join->children[0]));
    if (!rf.empty()) copy->children[1] = push(make_filter(conjunction(rf), join->children[1]));
    copy->condition = keep.empty() ? nullptr : conjunction(keep);
    return copy;
  }

  PlanPtr push(const PlanPtr& node) const {
    if (node->kind == PlanKind::kJoin) return push_join_condition(node);
    if (node->kind != PlanKind::kFilter || !node->condition->deterministic()) return node;
    const PlanPtr& child = node->children[0];
    switch (child->kind) {
      case PlanKind::kFilter: {
        if (!child->condition->deterministic()) return node;
        auto a = std::make_shared<Expr>();
        a->kind = ExprKind::kCall;
        a->function = functions::Registry::instance().find("and");
        a->type = DataType::boolean();
        a->nullable = child->condition->nullable || node->condition->nullable;
        a->children = {child->condition, node->condition};
        return push(make_filter(a, child->children[0]));
      }
      case PlanKind::kProject: {
        if (!deterministic_list(child->exprs)) return node;
        std::map<int64_t, ExprPtr> aliases;
        for (auto& e : child->exprs)
          if (e->kind == ExprKind::kAlias) aliases[e->expr_id] = e->children[0];
        ExprPtr cond = transform_expr_up(node->condition, [&](const ExprPtr& e) -> ExprPtr {
          if (e->kind != ExprKind::kAttribute) return e;
          auto it = aliases.find(e->expr_id);
          return it == aliases.end() ? e : it->second;
        });
        PlanPtr pushed = push(make_filter(cond, child->children[0]));
        return with_child(child, pushed);
      }
      case PlanKind::kSort:
      case PlanKind::kRepartition:
      case PlanKind::kSubqueryAlias:
      case PlanKind::kHint: {
        // Attributes keep their ids through these nodes.
        return with_child(child, push(make_filter(node->condition, child->children[0])));
      }
      case PlanKind::kJoin: {
        std::vector<ExprPtr> parts, rest;
        split_and(node->condition, parts);
        PlanPtr join = place_into_join(child, parts, rest);
        if (join == child) return node;
        join = push_join_condition(join);
        return rest.empty() ? join : make_filter(conjunction(rest), join);
      }
      default: return node;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_push_down_filters() { return std::make_unique<PushDownFilters>(); }

}  // namespace ember::plan
