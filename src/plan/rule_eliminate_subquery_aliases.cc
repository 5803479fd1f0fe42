// EliminateSubqueryAliases: a subquery alias only qualifies the names of its child's columns for
// the analyzer (`t.a`); once every name is resolved to an attribute it has no work left, so the
// optimized plan no longer shows it, as in Spark. The analyzed plan keeps it.

#include "plan/optimizer.h"

namespace ember::plan {
namespace {

class EliminateSubqueryAliases final : public Rule {
 public:
  const char* name() const override { return "EliminateSubqueryAliases"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
      if (node->kind != PlanKind::kSubqueryAlias || node->children.size() != 1) return node;
      // The alias re-qualifies the child's attributes under the same ids, names and types.
      const PlanPtr& child = node->children[0];
      if (child->output.size() != node->output.size()) return node;
      for (size_t i = 0; i < child->output.size(); ++i)
        if (child->output[i]->expr_id != node->output[i]->expr_id ||
            child->output[i]->name != node->output[i]->name)
          return node;
      return child;
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_eliminate_subquery_aliases() {
  return std::make_unique<EliminateSubqueryAliases>();
}

}  // namespace ember::plan
