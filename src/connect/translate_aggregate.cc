// Aggregation: groupBy(...).agg(...), rollup, cube, groupingSets and pivot; unpivot (melt).

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
    case pb::Aggregate::GROUP_TYPE_PIVOT: {
      // Without values the analyzer computes the column's distinct values, as Spark's server does.
      if (!r.has_pivot()) throw_invalid_plan("INVALID_PIVOT", "Aggregate of type PIVOT needs a pivot");
      auto node = new_node(PlanKind::kPivot, {relation(r.input())});
      node->exprs = expressions(r.grouping_expressions());
      node->aggregates = expressions(r.aggregate_expressions());
      node->pivot_columns = {expression(r.pivot().col())};
      for (const auto& v : r.pivot().values()) {
        TypedValue tv = literal_from_proto(v);
        node->pivot_values.push_back(plan::lit(std::move(tv.value), std::move(tv.type)));
      }
      return node;
    }
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

PlanTranslator::NodePtr PlanTranslator::unpivot(const pb::Unpivot& r) {
  if (!r.has_input() || r.input().rel_type_case() == pb::Relation::REL_TYPE_NOT_SET) {
    throw_invalid_plan("UNPIVOT_NEEDS_PLAN_INPUT", "Unpivot needs a plan input");
  }
  auto node = new_node(PlanKind::kUnpivot, {relation(r.input())});
  node->exprs = expressions(r.ids());
  node->unpivot_values_given = r.has_values();
  if (r.has_values())
    for (const auto& v : r.values().values()) node->unpivot_values.push_back({expression(v)});
  node->alias = r.variable_column_name();
  node->names = {r.value_column_name()};
  node->unpivot_include_nulls = true;
  return node;
}

}  // namespace ember::connect
