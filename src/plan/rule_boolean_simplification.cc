// BooleanSimplification: TRUE AND x → x, FALSE AND x → FALSE, TRUE OR x → TRUE, FALSE OR x → x,
// NOT NOT x → x, and filters on a literal TRUE disappear.

#include "functions/function.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

bool is_bool_lit(const ExprPtr& e, bool v) {
  return e->kind == ExprKind::kLiteral && !e->value.is_null() && e->type->id() == TypeId::kBoolean &&
         e->value.as_bool() == v;
}

bool is_fn(const ExprPtr& e, const char* name) {
  return e->kind == ExprKind::kCall && e->function && e->function->name == name;
}

ExprPtr simplify(const ExprPtr& e) {
  if (is_fn(e, "and") || is_fn(e, "or")) {
    bool is_and = is_fn(e, "and");
    const ExprPtr& l = e->children[0];
    const ExprPtr& r = e->children[1];
    // Only the side that decides alone may drop the other; x AND TRUE keeps x's nullability.
    for (auto [a, b] : {std::pair{l, r}, std::pair{r, l}}) {
      if (is_bool_lit(a, is_and)) return b;                              // TRUE AND b, FALSE OR b
      if (is_bool_lit(a, !is_and) && b->deterministic()) return a;       // FALSE AND b, TRUE OR b
    }
  }
  if (is_fn(e, "not") && is_fn(e->children[0], "not")) return e->children[0]->children[0];
  return e;
}

class BooleanSimplification final : public Rule {
 public:
  const char* name() const override { return "BooleanSimplification"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [&](const PlanPtr& node) -> PlanPtr {
      PlanPtr n = map_expressions(node, [&](const ExprPtr& top) { return transform_expr_up(top, simplify); });
      if (n->kind == PlanKind::kFilter && is_bool_lit(n->condition, true)) return n->children[0];
      return n;
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_boolean_simplification() { return std::make_unique<BooleanSimplification>(); }

}  // namespace ember::plan
