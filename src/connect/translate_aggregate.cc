// Aggregation: groupBy(...).agg(...), rollup, cube and groupingSets. PIVOT comes later.

#include "connect/errors.h"
#include "connect/translate.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::PlanKind;

PlanTranslator::NodePtr PlanTranslator::aggregate(const pb::Aggregate& r) {
  if (!r.has_input() || r.input().rel_type_case() == pb::Relation::REL_TYPE_NOT_SET) {
    throw_invalid_plan("AGGREGATE_NEEDS_PLAN_INPUT", "Aggregate needs a plan input");
  }
  switch (r.group_type()) {
    case pb::Aggregate::GROUP_TYPE_GROUPBY:
      break;
    case pb::Aggregate::GROUP_TYPE_ROLLUP:
    case pb::Aggregate::GROUP_TYPE_CUBE:
    case pb::Aggregate::GROUP_TYPE_GROUPING_SETS:
      break;
    case pb::Aggregate::GROUP_TYPE_PIVOT:
      throw_not_supported("Pivot");
    default:
      throw_invalid_plan("INVALID_ENUM",
                         "This enum value of spark.connect.Aggregate.GroupType is invalid: " +
                             pb::Aggregate::GroupType_Name(r.group_type()) + "(" +
                             std::to_string(static_cast<int>(r.group_type())) + ")",
                         {{"fullName", "spark.connect.Aggregate.GroupType"},
                          {"name", pb::Aggregate::GroupType_Name(r.group_type())},
                          {"number", std::to_string(static_cast<int>(r.group_type()))}});
  }
  auto node = new_node(PlanKind::kAggregate, {relation(r.input())});
  node->exprs = expressions(r.grouping_expressions());
  node->aggregates = expressions(r.aggregate_expressions());
  const auto& keys = node->exprs;
  const size_t n = keys.size();
  if (r.group_type() == pb::Aggregate::GROUP_TYPE_ROLLUP) {
    // (a, b) → (a, b), (a), ().
    for (size_t len = n + 1; len-- > 0;) node->grouping_sets.emplace_back(keys.begin(), keys.begin() + static_cast<long>(len));
  } else if (r.group_type() == pb::Aggregate::GROUP_TYPE_CUBE) {
    // Every subset, the full set first and the empty set last.
    if (n > 12) throw_not_supported("CUBE over more than 12 expressions");
    for (size_t mask = (size_t{1} << n); mask-- > 0;) {
      std::vector<plan::ExprPtr> set;
      for (size_t i = 0; i < n; ++i)
        if (mask & (size_t{1} << (n - 1 - i))) set.push_back(keys[i]);
      node->grouping_sets.push_back(std::move(set));
    }
  } else if (r.group_type() == pb::Aggregate::GROUP_TYPE_GROUPING_SETS) {
    for (const auto& gs : r.grouping_sets()) node->grouping_sets.push_back(expressions(gs.grouping_set()));
    if (node->grouping_sets.empty()) node->grouping_sets.emplace_back();
  }
  return node;
}

}  // namespace ember::connect
