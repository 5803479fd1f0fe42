// Aggregation: groupBy(...).agg(...). ROLLUP, CUBE, PIVOT and GROUPING SETS come later.

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
      throw_not_supported("GROUP BY ROLLUP");
    case pb::Aggregate::GROUP_TYPE_CUBE:
      throw_not_supported("GROUP BY CUBE");
    case pb::Aggregate::GROUP_TYPE_PIVOT:
      throw_not_supported("Pivot");
    case pb::Aggregate::GROUP_TYPE_GROUPING_SETS:
      throw_not_supported("GROUPING SETS");
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
  return node;
}

}  // namespace ember::connect
