// PushDownFilters: moves filters towards the scans — combines adjacent filters, pushes a filter
// below a projection (substituting the projection's aliases) when both are deterministic, and
// below sorts, repartitions and aliases, so that scans and joins see fewer rows.

#include <map>

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

class PushDownFilters final : public Rule {
 public:
  const char* name() const override { return "PushDownFilters"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [&](const PlanPtr& node) { return push(node); });
  }

 private:
  PlanPtr push(const PlanPtr& node) const {
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
      default: return node;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_push_down_filters() { return std::make_unique<PushDownFilters>(); }

}  // namespace ember::plan
