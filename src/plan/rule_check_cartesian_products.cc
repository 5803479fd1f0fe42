// CheckCartesianProducts: with spark.sql.crossJoin.enabled=false, an inner or outer join whose
// condition never relates its two sides (missing, or trivial once folded, like `lit(True)`) is
// an error, as in Spark; an explicit cross join (crossJoin, CROSS JOIN) stays allowed. It runs
// after filters were pushed into joins, so `a.join(b).where(a.k == b.k)` is not a product.

#include <set>

#include "common/error.h"
#include "functions/function.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

void collect_ids(const ExprPtr& e, std::set<int64_t>& ids) {
  if (e->kind == ExprKind::kAttribute) ids.insert(e->expr_id);
  for (auto& c : e->children) collect_ids(c, ids);
}

void split_and(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::kCall && e->function && e->function->name == "and") {
    for (auto& c : e->children) split_and(c, out);
    return;
  }
  out.push_back(e);
}

bool references_any(const std::set<int64_t>& refs, const PlanPtr& side) {
  for (auto& a : side->output)
    if (refs.count(a->expr_id)) return true;
  return false;
}

bool is_cartesian(const PlanNode& join) {
  if (!join.condition) return true;
  std::vector<ExprPtr> conjuncts;
  split_and(join.condition, conjuncts);
  for (auto& c : conjuncts) {
    std::set<int64_t> refs;
    collect_ids(c, refs);
    if (references_any(refs, join.children[0]) && references_any(refs, join.children[1])) return false;
  }
  return true;
}

class CheckCartesianProducts final : public Rule {
 public:
  const char* name() const override { return "CheckCartesianProducts"; }
  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    if (conf.get_bool("spark.sql.crossJoin.enabled", true)) return plan;
    check(plan);
    return plan;
  }

 private:
  static void check(const PlanPtr& n) {
    for (auto& c : n->children) check(c);
    if (n->kind != PlanKind::kJoin) return;
    switch (n->join_type) {
      case JoinType::kInner:
      case JoinType::kLeftOuter:
      case JoinType::kRightOuter:
      case JoinType::kFullOuter: break;
      default: return;
    }
    if (!is_cartesian(*n)) return;
    throw SparkError(ErrorKind::kAnalysis, "",
                     "Detected implicit cartesian product for " + join_type_sql(n->join_type) +
                         " join between logical plans\n" + trimmed(plan_tree_string(n->children[0])) + "\nand\n" +
                         trimmed(plan_tree_string(n->children[1])) +
                         "\nJoin condition is missing or trivial.\nEither: use the CROSS JOIN syntax to allow "
                         "cartesian products between these\nrelations, or: enable implicit cartesian products by "
                         "setting the configuration\nvariable spark.sql.crossJoin.enabled=true;");
  }

  static std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }

  static std::string join_type_sql(JoinType t) {
    switch (t) {
      case JoinType::kLeftOuter: return "LEFT OUTER";
      case JoinType::kRightOuter: return "RIGHT OUTER";
      case JoinType::kFullOuter: return "FULL OUTER";
      default: return "INNER";
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_check_cartesian_products() { return std::make_unique<CheckCartesianProducts>(); }

}  // namespace ember::plan
