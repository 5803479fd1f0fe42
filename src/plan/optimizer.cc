#include "plan/optimizer.h"

#include <chrono>
#include <set>
#include <sstream>

#include "common/error.h"

namespace ember::plan {

PlanPtr transform_up(const PlanPtr& plan, const std::function<PlanPtr(const PlanPtr&)>& f) {
  std::vector<PlanPtr> kids;
  bool changed = false;
  for (auto& c : plan->children) {
    kids.push_back(transform_up(c, f));
    changed |= kids.back() != c;
  }
  PlanPtr node = plan;
  if (changed) {
    auto copy = std::make_shared<PlanNode>(*plan);
    copy->children = std::move(kids);
    node = copy;
  }
  return f(node);
}

ExprPtr transform_expr_up(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& f) {
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(transform_expr_up(c, f));
    changed |= kids.back() != c;
  }
  return f(changed ? with_children(e, std::move(kids)) : e);
}

PlanPtr map_expressions(const PlanPtr& node, const std::function<ExprPtr(const ExprPtr&)>& f) {
  auto copy = std::make_shared<PlanNode>(*node);
  bool changed = false;
  for (auto* list : {&copy->exprs, &copy->aggregates}) {
    for (auto& e : *list) {
      ExprPtr r = f(e);
      changed |= r != e;
      e = r;
    }
  }
  if (copy->condition) {
    ExprPtr r = f(copy->condition);
    changed |= r != copy->condition;
    copy->condition = r;
  }
  return changed ? copy : node;
}

const std::vector<std::unique_ptr<Rule>>& optimizer_rules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(make_eliminate_resolved_hint());
    r.push_back(make_eliminate_subquery_aliases());
    // Subqueries first: the rules after them see joins only.
    r.push_back(make_rewrite_correlated_scalar_subquery());
    r.push_back(make_rewrite_predicate_subquery());
    // Before the rules that move comparisons into scans: scans compare bytes.
    r.push_back(make_rewrite_collation_keys());
    r.push_back(make_constant_folding());
    r.push_back(make_boolean_simplification());
    r.push_back(make_push_down_filters());
    // Before join reordering, which may pair relations the query never related.
    r.push_back(make_check_cartesian_products());
    r.push_back(make_reorder_join());
    r.push_back(make_limit_push_down());
    // After the rules that move filters and joins, so that it sees their final inputs.
    r.push_back(make_column_pruning());
    r.push_back(make_collapse_projects());
    r.push_back(make_remove_noop_operators());
    return r;
  }();
  return rules;
}

namespace {

/// Ember's rule for one of Spark's rule names, where they differ.
std::string spark_name(const std::string& item) {
  if (item == "PushDownPredicates") return "PushDownFilters";
  if (item == "CollapseProject") return "CollapseProjects";
  return item;
}

}  // namespace

bool optimizer_rule_enabled(const std::string& name, const Config& conf) {
  std::string excluded = conf.get_or("spark.sql.optimizer.excludedRules", "");
  std::stringstream ss(excluded);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    // Accept Spark's fully qualified names by their last component.
    auto dot = item.rfind('.');
    if (dot != std::string::npos) item = item.substr(dot + 1);
    // Spark ignores the rules it cannot exclude (the subquery aliases have no work left after
    // analysis); Ember's own key still switches them off.
    if (name == "EliminateSubqueryAliases") continue;
    if (item == name || spark_name(item) == name) return false;
  }
  return conf.get_bool("spark.ember.optimizer." + name + ".enabled", true);
}

namespace {

bool rule_enabled(const Rule& rule, const Config& conf) {
  return !rule.excludable() || optimizer_rule_enabled(rule.name(), conf);
}

void check_output(const PlanPtr& before, const PlanPtr& after, const Rule& rule) {
  const auto& a = before->output;
  const auto& b = after->output;
  bool ok = a.size() == b.size();
  for (size_t i = 0; ok && i < a.size(); ++i)
    ok = a[i]->name == b[i]->name && a[i]->type->same_type(*b[i]->type) && a[i]->expr_id == b[i]->expr_id;
  EMBER_CHECK(ok, std::string("optimizer rule ") + rule.name() + " changed the plan's output");
}

}  // namespace

PlanPtr optimize_plan(const PlanPtr& plan, const Config& conf, std::vector<RuleRun>* runs) {
  PlanPtr current = plan;
  for (int pass = 0; pass < 4; ++pass) {
    bool any = false;
    for (auto& rule : optimizer_rules()) {
      if (!rule_enabled(*rule, conf)) continue;
      auto t0 = std::chrono::steady_clock::now();
      PlanPtr next = rule->apply(current, conf);
      auto t1 = std::chrono::steady_clock::now();
      bool changed = next != current;
      if (changed) check_output(current, next, *rule);
      if (runs) runs->push_back({rule->name(), changed, std::chrono::duration<double, std::milli>(t1 - t0).count()});
      any |= changed;
      current = next;
    }
    if (!any) break;
  }
  // Once, after the others, so that no rule moves a Python call back where it cannot run.
  static const std::unique_ptr<Rule> extract_python = make_extract_python_udfs();
  auto t0 = std::chrono::steady_clock::now();
  PlanPtr next = extract_python->apply(current, conf);
  auto t1 = std::chrono::steady_clock::now();
  if (next != current) check_output(current, next, *extract_python);
  if (runs) runs->push_back({extract_python->name(), next != current, std::chrono::duration<double, std::milli>(t1 - t0).count()});
  return next;
}

}  // namespace ember::plan
