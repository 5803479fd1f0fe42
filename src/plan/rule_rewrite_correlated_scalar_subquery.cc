// RewriteCorrelatedScalarSubquery: a scalar subquery that reads outer columns becomes a left
// outer join with its aggregate, grouped by the correlation keys (its correlated equalities),
// and the subquery's value a column of that join. An outer row without a group gets the
// aggregate's value over no rows (count is 0, not null: the "COUNT bug"). Uncorrelated scalar
// subqueries stay: physical planning runs them once, before the query.

#include "common/error.h"
#include "functions/function.h"
#include "plan/optimizer.h"
#include "plan/subquery.h"

namespace ember::plan {
namespace {

bool has_correlated_scalar(const ExprPtr& e) {
  if (e->kind == ExprKind::kSubquery && e->subquery_kind == SubqueryKind::kScalar &&
      plan_is_correlated(e->subquery))
    return true;
  for (auto& c : e->children)
    if (has_correlated_scalar(c)) return true;
  return false;
}

class RewriteCorrelatedScalarSubquery final : public Rule {
 public:
  const char* name() const override { return "RewriteCorrelatedScalarSubquery"; }

  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    return transform_up(plan, [&](const PlanPtr& node) { return rewrite(node, conf); });
  }

 private:
  PlanPtr rewrite(const PlanPtr& node, const Config& conf) const {
    auto nested = [&](const PlanPtr& q) { return apply(q, conf); };
    // Nested subqueries (inside EXISTS / IN plans too) are rewritten first.
    auto rewrite_inside = [&](const ExprPtr& e) -> ExprPtr {
      if (!has_subquery(e)) return e;
      return transform_expr_up(e, [&](const ExprPtr& x) -> ExprPtr {
        if (x->kind != ExprKind::kSubquery) return x;
        PlanPtr q = nested(x->subquery);
        if (q == x->subquery) return x;
        auto c = std::make_shared<Expr>(*x);
        c->subquery = q;
        return c;
      });
    };
    PlanPtr n = map_expressions(node, rewrite_inside);
    switch (n->kind) {
      case PlanKind::kFilter: {
        if (!has_correlated_scalar(n->condition)) return n;
        PlanPtr input = n->children[0];
        ExprPtr c = rewrite_subquery_expressions(n->condition, input, conf, false, nested);
        return project_to(filter_node(input, c), n->output);
      }
      case PlanKind::kProject: {
        bool any = false;
        for (auto& e : n->exprs) any |= has_correlated_scalar(e);
        if (!any) return n;
        PlanPtr input = n->children[0];
        auto p = std::make_shared<PlanNode>(*n);
        for (auto& e : p->exprs) e = rewrite_subquery_expressions(e, input, conf, false, nested);
        p->children = {input};
        return p;
      }
      default: {
        bool any = false;
        for (auto* list : {&n->exprs, &n->aggregates})
          for (auto& e : *list) any |= has_correlated_scalar(e);
        if (n->condition) any |= has_correlated_scalar(n->condition);
        if (!any) return n;
        throw SparkError(
            ErrorKind::kAnalysis,
            "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_CORRELATED_SCALAR_SUBQUERY",
            "Unsupported subquery expression: Correlated scalar subqueries can only be used in "
            "filters, "
            "aggregations, projections, and UPDATE/MERGE/DELETE commands: " +
                plan_tree_string(n) + ".",
            {{"treeNode", plan_tree_string(n)}}, "0A000");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_rewrite_correlated_scalar_subquery() {
  return std::make_unique<RewriteCorrelatedScalarSubquery>();
}

}  // namespace ember::plan
