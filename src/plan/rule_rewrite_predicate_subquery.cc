// RewritePredicateSubquery: EXISTS and IN subqueries become joins. A conjunct of a filter that
// is `EXISTS (q)` or `x IN (q)` is a left semi join with `q`, its negation a left anti join
// (NOT IN null-aware: a comparison that is unknown also rules the row out); anywhere else
// (under OR, in a projection, in CASE) the subquery becomes the flag of an existence join.
// Correlated conjuncts of `q` move into the join condition, equalities becoming hash keys and
// the rest (`l2.x <> l1.x`) a condition on the candidate pairs.

#include "common/error.h"
#include "functions/function.h"
#include "plan/optimizer.h"
#include "plan/subquery.h"

namespace ember::plan {
namespace {

bool is_predicate_subquery(const ExprPtr& e) {
  return e->kind == ExprKind::kSubquery && e->subquery_kind != SubqueryKind::kScalar;
}

bool has_predicate_subquery(const ExprPtr& e) {
  if (is_predicate_subquery(e)) return true;
  for (auto& c : e->children)
    if (has_predicate_subquery(c)) return true;
  return false;
}

class RewritePredicateSubquery final : public Rule {
 public:
  const char* name() const override { return "RewritePredicateSubquery"; }

  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    return transform_up(plan, [&](const PlanPtr& node) { return rewrite(node, conf); });
  }

 private:
  PlanPtr rewrite(const PlanPtr& node, const Config& conf) const {
    auto nested = [&](const PlanPtr& q) { return apply(q, conf); };
    switch (node->kind) {
      case PlanKind::kFilter: {
        if (!has_predicate_subquery(node->condition)) return node;
        std::vector<ExprPtr> parts, plain, rest;
        std::vector<std::pair<ExprPtr, bool>> semi;  // (subquery, negated)
        split_conjuncts(node->condition, parts);
        for (auto& c : parts) {
          bool negated = c->kind == ExprKind::kCall && c->function && c->function->name == "not" &&
                         is_predicate_subquery(c->children[0]);
          if (is_predicate_subquery(c))
            semi.emplace_back(c, false);
          else if (negated)
            semi.emplace_back(c->children[0], true);
          else if (has_predicate_subquery(c))
            rest.push_back(c);
          else
            plain.push_back(c);
        }
        PlanPtr input = node->children[0];
        if (!plain.empty()) input = filter_node(input, conjoin(plain, conf));
        for (auto& [sq, negated] : semi) {
          auto q = std::make_shared<Expr>(*sq);
          q->subquery = nested(sq->subquery);
          bool in = sq->subquery_kind == SubqueryKind::kIn;
          input =
              predicate_subquery_join(input, q, negated ? JoinType::kLeftAnti : JoinType::kLeftSemi,
                                      negated && in, nullptr, conf);
        }
        if (!rest.empty()) {
          std::vector<ExprPtr> rewritten;
          for (auto& c : rest)
            rewritten.push_back(rewrite_subquery_expressions(c, input, conf, true, nested));
          input = filter_node(input, conjoin(rewritten, conf));
        }
        return input->output.size() == node->output.size() ? input
                                                           : project_to(input, node->output);
      }
      case PlanKind::kProject: {
        bool any = false;
        for (auto& e : node->exprs) any |= has_predicate_subquery(e);
        if (!any) return node;
        PlanPtr input = node->children[0];
        auto n = std::make_shared<PlanNode>(*node);
        for (auto& e : n->exprs) e = rewrite_subquery_expressions(e, input, conf, true, nested);
        n->children = {input};
        return n;
      }
      case PlanKind::kJoin: {
        if (!node->condition || !has_predicate_subquery(node->condition)) return node;
        if (node->join_type != JoinType::kInner && node->join_type != JoinType::kCross)
          throw SparkError(
              ErrorKind::kAnalysis,
              "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_IN_EXISTS_SUBQUERY",
              "Unsupported subquery expression: IN/EXISTS predicate subqueries can only be used in "
              "filters, joins, aggregations, window functions, projections, and "
              "UPDATE/MERGE/DELETE "
              "commands: " +
                  node->condition->to_string() + ".",
              {{"treeNode", node->condition->to_string()}}, "0A000");
        // An inner join's condition is a filter over the cross product.
        auto cross = std::make_shared<PlanNode>(*node);
        cross->condition = nullptr;
        cross->join_type = JoinType::kInner;
        return rewrite(filter_node(cross, node->condition), conf);
      }
      default: {
        bool any = false;
        for (auto* list : {&node->exprs, &node->aggregates})
          for (auto& e : *list) any |= has_predicate_subquery(e);
        if (node->condition) any |= has_predicate_subquery(node->condition);
        if (!any || node->kind == PlanKind::kJoin) return node;
        throw SparkError(ErrorKind::kAnalysis,
                         "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_IN_EXISTS_SUBQUERY",
                         "Unsupported subquery expression: IN/EXISTS predicate subqueries can only "
                         "be used in filters, "
                         "joins, aggregations, window functions, projections, and "
                         "UPDATE/MERGE/DELETE commands: " +
                             plan_tree_string(node) + ".",
                         {{"treeNode", plan_tree_string(node)}}, "0A000");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_rewrite_predicate_subquery() {
  return std::make_unique<RewritePredicateSubquery>();
}

}  // namespace ember::plan
