#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/config.h"
#include "plan/logical_plan.h"

namespace ember::plan {

/// One named rewrite of a resolved logical plan. Rules must keep the plan's output (names,
/// types, nullability widening only) — the optimizer checks that after each rule.
class Rule {
 public:
  virtual ~Rule() = default;
  virtual const char* name() const = 0;
  virtual PlanPtr apply(const PlanPtr& plan, const Config& conf) const = 0;
  /// Rules the results depend on run whatever the configuration excludes.
  virtual bool excludable() const { return true; }
};

/// Timing and effect of one rule in one optimization, for `explain(mode="cost")`-style output
/// and tests.
struct RuleRun {
  std::string rule;
  bool changed = false;
  double millis = 0;
};

/// Runs the rules in order (to a fixed point, at most a few passes). A rule is skipped when its
/// name is listed in `spark.sql.optimizer.excludedRules` (comma-separated; Spark's key) or
/// `spark.ember.optimizer.<name>.enabled` is false.
PlanPtr optimize_plan(const PlanPtr& plan, const Config& conf, std::vector<RuleRun>* runs = nullptr);

/// Whether `name` runs: neither listed in spark.sql.optimizer.excludedRules (by its name or
/// Spark's, fully qualified or not: PushDownPredicates is PushDownFilters, CollapseProject is
/// CollapseProjects) nor switched off by spark.ember.optimizer.<name>.enabled.
/// Planning steps that carry out a rule's decisions (scans reading only the columns that
/// ColumnPruning left) ask this too.
bool optimizer_rule_enabled(const std::string& name, const Config& conf);

/// The rules, in the order they run.
const std::vector<std::unique_ptr<Rule>>& optimizer_rules();

/// `e` as a literal when it folds to one (its text kept for column names), else `e` itself.
/// The analyzer folds the arguments a function needs as constants (FunctionDef::constant_args)
/// this way, before the function's type rule reads them. With `rethrow`, an evaluation that
/// fails raises its error instead of leaving the expression unfolded.
ExprPtr fold_constant(const ExprPtr& e, const Config& conf, bool rethrow = false);

// Rule factories, one per file, plan/rule_<name>.cc.
std::unique_ptr<Rule> make_rewrite_correlated_scalar_subquery();
std::unique_ptr<Rule> make_rewrite_predicate_subquery();
std::unique_ptr<Rule> make_constant_folding();
std::unique_ptr<Rule> make_boolean_simplification();
std::unique_ptr<Rule> make_eliminate_resolved_hint();
std::unique_ptr<Rule> make_eliminate_subquery_aliases();
std::unique_ptr<Rule> make_remove_noop_operators();
std::unique_ptr<Rule> make_push_down_filters();
std::unique_ptr<Rule> make_check_cartesian_products();
std::unique_ptr<Rule> make_reorder_join();
std::unique_ptr<Rule> make_column_pruning();
std::unique_ptr<Rule> make_limit_push_down();
std::unique_ptr<Rule> make_collapse_projects();
std::unique_ptr<Rule> make_rewrite_collation_keys();
/// Runs once after the rules above (optimize_plan), not among them.
std::unique_ptr<Rule> make_extract_python_udfs();

/// Helper for rules: rebuilds `plan` bottom-up, replacing each node by `f(node)`.
PlanPtr transform_up(const PlanPtr& plan, const std::function<PlanPtr(const PlanPtr&)>& f);
/// Rewrites every expression of a node (exprs, aggregates, condition) with `f`.
PlanPtr map_expressions(const PlanPtr& node, const std::function<ExprPtr(const ExprPtr&)>& f);
/// Rebuilds an expression bottom-up with `f`.
ExprPtr transform_expr_up(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f);

}  // namespace ember::plan
