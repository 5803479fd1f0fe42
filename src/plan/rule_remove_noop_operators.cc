// RemoveNoopOperators: a projection that passes its child's columns through unchanged (the same
// attributes, in the same order, under the same names) computes nothing, so the optimized plan
// drops it, as Spark's rule of that name does (`SELECT * FROM t`, `df.select(df.columns)`).

#include "plan/optimizer.h"

namespace ember::plan {
namespace {

/// Whether `project` outputs exactly its child's attributes.
bool is_identity(const PlanNode& project) {
  const PlanPtr& child = project.children[0];
  if (project.exprs.size() != child->output.size() || project.output.size() != child->output.size())
    return false;
  for (size_t i = 0; i < project.exprs.size(); ++i) {
    const ExprPtr& e = project.exprs[i];
    const ExprPtr& a = child->output[i];
    if (e->kind != ExprKind::kAttribute || e->expr_id != a->expr_id || e->name != a->name)
      return false;
    if (project.output[i]->name != a->name || project.output[i]->expr_id != a->expr_id)
      return false;
  }
  return true;
}

class RemoveNoopOperators final : public Rule {
 public:
  const char* name() const override { return "RemoveNoopOperators"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
      if (node->kind != PlanKind::kProject || node->children.size() != 1 || !is_identity(*node))
        return node;
      return node->children[0];
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_remove_noop_operators() {
  return std::make_unique<RemoveNoopOperators>();
}

}  // namespace ember::plan
