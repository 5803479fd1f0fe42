// DataFrame.describe and DataFrame.summary: one aggregation over the input computes every
// statistic of every column, then one row per statistic, values shown as strings, as Spark
// lays them out ("summary" column first).

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::ExprPtr;
using plan::PlanKind;

namespace {

/// The aggregate of one statistic over a column, or null when the statistic does not apply to
/// the column's type (mean and stddev of strings).
ExprPtr statistic(const std::string& stat, const ExprPtr& column, const DataType& type) {
  ExprPtr c = plan::col({column->name});
  if (stat == "count") return plan::call("count", {c});
  if (stat == "min" || stat == "max") return plan::call(stat, {c});
  if (stat == "mean" || stat == "stddev") {
    if (!type.is_numeric()) return nullptr;
    return plan::call(stat == "mean" ? "avg" : "stddev", {c});
  }
  return nullptr;
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::describe_columns(const plan::PlanPtr& child,
                                                          const std::vector<std::string>& cols,
                                                          const std::vector<std::string>& stats) {
  std::vector<ExprPtr> output = input_columns(child);
  std::vector<ExprPtr> columns;
  if (cols.empty()) {
    for (const auto& a : output)
      if (a->type->is_numeric() || a->type->id() == TypeId::kString) columns.push_back(a);
  } else {
    for (const auto& name : cols) {
      ExprPtr found;
      for (const auto& a : output)
        if (a->name == name) found = a;
      if (!found) {
        auto probe = new_node(PlanKind::kProject, {child});
        probe->exprs.push_back(plan::col({name}));
        ctx_.session->analyze(probe);  // raises UNRESOLVED_COLUMN with suggestions
      }
      columns.push_back(found);
    }
  }
  for (const auto& s : stats) {
    if (s != "count" && s != "mean" && s != "stddev" && s != "min" && s != "max")
      throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                       "The statistic '" + s + "' of DataFrame.summary is not supported yet.");
  }
  // One aggregation: statistic s of column c is output s_c.
  auto agg = new_node(PlanKind::kAggregate, {child});
  std::vector<std::vector<std::string>> names(stats.size());
  for (size_t s = 0; s < stats.size(); ++s) {
    for (size_t c = 0; c < columns.size(); ++c) {
      std::string name = "__stat_" + std::to_string(s) + "_" + std::to_string(c);
      ExprPtr e = statistic(stats[s], columns[c], *columns[c]->type);
      if (!e) continue;
      agg->aggregates.push_back(plan::alias(e, name));
      names[s].push_back(name);
    }
  }
  plan::PlanPtr stats_row = agg;
  // A row per statistic, unioned in order.
  plan::PlanPtr result;
  for (size_t s = 0; s < stats.size(); ++s) {
    auto row = new_node(PlanKind::kProject, {stats_row});
    // Spark's summary column is nullable.
    ExprPtr label = plan::call("if", {plan::lit(Value::boolean(true), DataType::boolean()),
                                      plan::lit(Value::bytes(stats[s]), DataType::string()),
                                      plan::lit(Value(), DataType::string())});
    row->exprs.push_back(plan::alias(label, "summary"));
    size_t k = 0;
    for (size_t c = 0; c < columns.size(); ++c) {
      ExprPtr value;
      if (statistic(stats[s], columns[c], *columns[c]->type)) {
        value = plan::cast(plan::col({names[s][k++]}), DataType::string());
      } else {
        value = plan::lit(Value(), DataType::string());
      }
      row->exprs.push_back(plan::alias(value, columns[c]->name));
    }
    if (!result) {
      result = row;
    } else {
      auto u = new_node(PlanKind::kSetOp, {result, row});
      u->set_op = plan::SetOpType::kUnion;
      u->is_all = true;
      result = u;
    }
  }
  // describe/summary of no statistics is an empty relation of just "summary".
  if (!result) {
    auto row = new_node(PlanKind::kProject, {stats_row});
    row->exprs.push_back(plan::alias(plan::lit(Value::bytes(""), DataType::string()), "summary"));
    auto none = new_node(PlanKind::kLimit, {row});
    none->limit = 0;
    return none;
  }
  // The union's node is returned as a fresh node the caller may tag with a plan id.
  auto top = new_node(PlanKind::kSubqueryAlias, {result});
  top->alias = "__summary";
  return top;
}

PlanTranslator::NodePtr PlanTranslator::describe(const pb::StatDescribe& r) {
  plan::PlanPtr child = input(r.input(), "StatDescribe");
  return describe_columns(child, {r.cols().begin(), r.cols().end()}, {"count", "mean", "stddev", "min", "max"});
}

PlanTranslator::NodePtr PlanTranslator::summary(const pb::StatSummary& r) {
  plan::PlanPtr child = input(r.input(), "StatSummary");
  std::vector<std::string> stats(r.statistics().begin(), r.statistics().end());
  if (stats.empty()) stats = {"count", "mean", "stddev", "min", "25%", "50%", "75%", "max"};
  return describe_columns(child, {}, stats);
}

}  // namespace ember::connect
