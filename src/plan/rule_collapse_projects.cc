// CollapseProjects: merges a projection into the projection below it when the lower one's
// expressions are cheap to inline (attributes, literals, or used once), so that a chain of
// withColumn calls evaluates in one pass.

#include <map>

#include "plan/optimizer.h"

namespace ember::plan {
namespace {

void count_refs(const ExprPtr& e, std::map<int64_t, int>& counts) {
  if (e->kind == ExprKind::kAttribute) ++counts[e->expr_id];
  for (auto& c : e->children) count_refs(c, counts);
}

class CollapseProjects final : public Rule {
 public:
  const char* name() const override { return "CollapseProjects"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [&](const PlanPtr& node) -> PlanPtr {
      if (node->kind != PlanKind::kProject || node->children[0]->kind != PlanKind::kProject) return node;
      const PlanPtr& lower = node->children[0];
      std::map<int64_t, ExprPtr> defs;
      for (auto& e : lower->exprs) {
        if (!e->deterministic()) return node;
        if (e->kind == ExprKind::kAlias) defs[e->expr_id] = e->children[0];
      }
      std::map<int64_t, int> counts;
      for (auto& e : node->exprs) count_refs(e, counts);
      for (auto& [id, def] : defs) {
        bool cheap = def->kind == ExprKind::kAttribute || def->kind == ExprKind::kLiteral;
        if (!cheap && counts[id] > 1) return node;
      }
      auto merged = std::make_shared<PlanNode>(*node);
      merged->children = lower->children;
      for (auto& e : merged->exprs) {
        ExprPtr top = e;
        ExprPtr body = transform_expr_up(top->kind == ExprKind::kAlias ? top->children[0] : top, [&](const ExprPtr& x) -> ExprPtr {
          if (x->kind != ExprKind::kAttribute) return x;
          auto it = defs.find(x->expr_id);
          return it == defs.end() ? x : it->second;
        });
        if (top->kind == ExprKind::kAlias) {
          e = with_children(top, {body});
        } else if (body != top) {
          // An attribute of the upper projection that named a lower alias keeps its name and id.
          e = alias(body, top->name, top->expr_id);
        }
      }
      return merged;
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_collapse_projects() { return std::make_unique<CollapseProjects>(); }

}  // namespace ember::plan
