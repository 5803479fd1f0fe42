// EliminateResolvedHint: a join strategy hint has done its work once the plan is analyzed (Ember
// chooses its joins by size, Spark moves the hint into the join below it), so the optimized plan
// no longer shows it, as in Spark.

#include "plan/optimizer.h"

namespace ember::plan {
namespace {

class EliminateResolvedHint final : public Rule {
 public:
  const char* name() const override { return "EliminateResolvedHint"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
      return node->kind == PlanKind::kHint && node->resolved ? node->children[0] : node;
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_eliminate_resolved_hint() { return std::make_unique<EliminateResolvedHint>(); }

}  // namespace ember::plan
