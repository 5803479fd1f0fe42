// BooleanSimplification: TRUE AND x → x, FALSE AND x → FALSE, TRUE OR x → TRUE, FALSE OR x → x,
// NOT NOT x → x, conjuncts common to both sides of an OR factored out ((a AND b) OR (a AND c) →
// a AND (b OR c), which holds in SQL's three-valued logic and lets a join key written in every
// branch become a join key), and filters on a literal TRUE disappear.

#include "functions/function.h"
#include "plan/analyzer.h"
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

void conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (is_fn(e, "and")) {
    conjuncts(e->children[0], out);
    conjuncts(e->children[1], out);
  } else {
    out.push_back(e);
  }
}

ExprPtr logical(const char* op, const ExprPtr& a, const ExprPtr& b) {
  auto n = std::make_shared<Expr>();
  n->kind = ExprKind::kCall;
  n->function = functions::Registry::instance().find(op);
  n->type = DataType::boolean();
  n->nullable = a->nullable || b->nullable;
  n->children = {a, b};
  return n;
}

ExprPtr all_of(const std::vector<ExprPtr>& parts) {
  ExprPtr acc;
  for (auto& p : parts) acc = acc ? logical("and", acc, p) : p;
  return acc;
}

/// (a AND b) OR (a AND c) → a AND (b OR c). Null when nothing is common, or when a side is only
/// common conjuncts (absorption would narrow the expression's nullability).
ExprPtr factor_or(const ExprPtr& e) {
  std::vector<ExprPtr> l, r;
  conjuncts(e->children[0], l);
  conjuncts(e->children[1], r);
  // A common conjunct with something left on both sides needs two conjuncts a side; checking
  // that first spares the keys of long OR chains (an IN list), which would cost the square of
  // their length at every level.
  if (l.size() < 2 || r.size() < 2) return nullptr;
  std::vector<std::string> rkeys;
  for (auto& x : r) rkeys.push_back(x->deterministic() ? semantic_key(x) : std::string());
  std::vector<ExprPtr> common, lrest;
  std::vector<bool> taken(r.size(), false);
  for (auto& x : l) {
    bool found = false;
    if (x->deterministic()) {
      std::string k = semantic_key(x);
      for (size_t i = 0; i < r.size() && !found; ++i)
        if (!taken[i] && rkeys[i] == k) taken[i] = found = true;
    }
    (found ? common : lrest).push_back(x);
  }
  if (common.empty()) return nullptr;
  std::vector<ExprPtr> rrest;
  for (size_t i = 0; i < r.size(); ++i)
    if (!taken[i]) rrest.push_back(r[i]);
  if (lrest.empty() || rrest.empty()) return nullptr;
  return logical("and", all_of(common), logical("or", all_of(lrest), all_of(rrest)));
}

ExprPtr simplify(const ExprPtr& e) {
  if (is_fn(e, "or")) {
    if (ExprPtr f = factor_or(e)) return f;
  }
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
