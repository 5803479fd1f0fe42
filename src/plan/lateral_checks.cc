#include "plan/lateral_checks.h"

#include "common/error.h"
#include "exec/python_udf.h"
#include "plan/cardinality.h"

namespace ember::plan {
namespace {

bool expr_deterministic(const ExprPtr& e) {
  if (!e) return true;
  if (e->function && !e->function->deterministic) return false;
  if (e->python && !e->python->deterministic) return false;
  if (e->subquery && !plan_deterministic(e->subquery)) return false;
  for (auto* list : {&e->children, &e->partition_by, &e->order_by})
    for (auto& c : *list)
      if (!expr_deterministic(c)) return false;
  return expr_deterministic(e->filter);
}

}  // namespace

bool plan_deterministic(const PlanPtr& p) {
  for (auto* list : {&p->exprs, &p->aggregates})
    for (auto& e : *list)
      if (!expr_deterministic(e)) return false;
  if (!expr_deterministic(p->condition)) return false;
  for (auto& c : p->children)
    if (!plan_deterministic(c)) return false;
  return true;
}

bool is_python_table_function_over_one_row(const PlanPtr& subquery) {
  PlanPtr p = subquery;
  while ((p->kind == PlanKind::kSubqueryAlias || p->kind == PlanKind::kProject ||
          p->kind == PlanKind::kHint) &&
         p->children.size() == 1)
    p = p->children[0];
  if (p->kind != PlanKind::kGenerate || p->exprs.empty()) return false;
  const ExprPtr& g = p->exprs[0];
  if (!g->python || !exec::is_table_python_eval_type(g->python->eval_type)) return false;
  const PlanPtr& input = p->children[0];
  return input->output.empty() && max_rows(input) == std::optional<int64_t>(1);
}

void check_lateral_subquery(const PlanPtr& outer, const PlanPtr& subquery, const PlanPtr& shown) {
  if (plan_deterministic(subquery)) return;
  const std::optional<int64_t> rows = max_rows(outer);
  if (rows && *rows <= 1) return;
  if (is_python_table_function_over_one_row(subquery)) return;
  const std::string tree = plan_tree_string(shown);
  throw SparkError(ErrorKind::kAnalysis,
                   "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.NON_DETERMINISTIC_LATERAL_SUBQUERIES",
                   "Unsupported subquery expression: Non-deterministic lateral subqueries are not "
                   "supported when "
                   "joining with outer relations that produce more than one row:\n" +
                       tree,
                   {{"treeNode", tree}}, "0A000");
}

void check_lateral_join_condition(const ExprPtr& condition) {
  if (!condition || expr_deterministic(condition)) return;
  const std::string shown = condition->to_string();
  throw SparkError(
      ErrorKind::kAnalysis,
      "UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.LATERAL_JOIN_CONDITION_NON_DETERMINISTIC",
      "Unsupported subquery expression: Lateral join condition cannot be non-deterministic: " +
          shown + ".",
      {{"condition", shown}}, "0A000");
}

}  // namespace ember::plan
