#include "plan/logical_plan.h"

#include "exec/python_udf.h"

#include "plan/cache_manager.h"

namespace ember::plan {

Schema PlanNode::output_schema() const {
  Schema s;
  for (auto& a : output) s.push_back({a->name, a->type, a->nullable, a->metadata_json.empty() ? "{}" : a->metadata_json});
  return s;
}

PlanPtr make_node(PlanKind kind, std::vector<PlanPtr> children) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = std::move(children);
  return n;
}

std::shared_ptr<PlanNode> range_function_node(const std::vector<int64_t>& args) {
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kRange;
  if (args.size() == 1) {
    n->range_end = args[0];
  } else if (args.size() > 1) {
    n->range_start = args[0];
    n->range_end = args[1];
    if (args.size() > 2) n->range_step = args[2];
    if (args.size() > 3) n->num_partitions = static_cast<int>(args[3]);
  }
  if (n->range_step == 0)
    throw SparkError(ErrorKind::kAnalysis, "FAILED_FUNCTION_CALL",
                     "Failed preparing of the function `range` for call. Please, double check "
                     "function's arguments.",
                     {{"funcName", "`range`"}}, "38000");
  return n;
}

std::string join_type_name(JoinType t) {
  switch (t) {
    case JoinType::kInner: return "Inner";
    case JoinType::kLeftOuter: return "LeftOuter";
    case JoinType::kRightOuter: return "RightOuter";
    case JoinType::kFullOuter: return "FullOuter";
    case JoinType::kLeftSemi: return "LeftSemi";
    case JoinType::kLeftAnti: return "LeftAnti";
    case JoinType::kCross: return "Cross";
    case JoinType::kExistence: return "ExistenceJoin";
  }
  return "?";
}

namespace {
std::string attr_list(const std::vector<ExprPtr>& es) {
  std::string s = "[";
  for (size_t i = 0; i < es.size(); ++i) {
    if (i) s += ", ";
    const Expr& e = *es[i];
    if (e.kind == ExprKind::kAttribute) s += e.name + "#" + std::to_string(e.expr_id);
    else if (e.kind == ExprKind::kAlias) s += e.children[0]->to_string() + " AS " + e.name + "#" + std::to_string(e.expr_id);
    else s += e.to_string();
  }
  return s + "]";
}

std::string with_ids(const ExprPtr& e) { return expr_with_ids(e); }

/// An unresolved expression (a hint parameter, a partitioning expression) as Spark's parsed
/// plans show it: values as they are, column references and calls quoted ('a, 'array(x, y)).
std::string hint_parameter(const ExprPtr& e) {
  switch (e->kind) {
    case ExprKind::kLiteral:
      return e->value.is_null() ? "null" : e->to_string();
    case ExprKind::kUnresolvedAttribute:
      return "'" + e->to_string();
    case ExprKind::kSortOrder:
      return hint_parameter(e->children[0]) + (e->ascending ? " ASC" : " DESC") +
             (e->nulls_first ? " NULLS FIRST" : " NULLS LAST");
    case ExprKind::kUnresolvedFunction: {
      std::string s = "'" + e->name + "(";
      for (size_t i = 0; i < e->children.size(); ++i) s += (i ? ", " : "") + hint_parameter(e->children[i]);
      return s + ")";
    }
    default:
      return e->to_string();
  }
}

std::string hint_line(const PlanNode& n) {
  if (n.resolved) return "ResolvedHint (strategy=" + n.hint_strategy + ")";
  bool expressions = false;
  std::string params;
  for (size_t i = 0; i < n.exprs.size(); ++i) {
    params += (i ? ", " : "") + hint_parameter(n.exprs[i]);
    expressions |= n.exprs[i]->kind != ExprKind::kLiteral && n.exprs[i]->kind != ExprKind::kUnresolvedFunction;
  }
  // Spark marks an operator whose expressions reference columns it cannot see with `!`.
  return std::string(expressions ? "!" : "") + "UnresolvedHint " + n.names[0] + (n.exprs.empty() ? "" : ", [" + params + "]");
}

std::string repartition_line(const PlanNode& n) {
  if (n.exprs.empty() && n.num_partitions > 0 && !n.rebalance && !n.by_range)
    return "Repartition " + std::to_string(n.num_partitions) + ", " + (n.shuffle ? "true" : "false");
  // Spark marks an operator with unresolved expressions with a quote.
  const bool unresolved = !n.resolved && !n.exprs.empty();
  std::string s = std::string(unresolved ? "'" : "") + (n.rebalance ? "RebalancePartitions" : "RepartitionByExpression");
  if (!n.exprs.empty()) {
    s += " [";
    for (size_t i = 0; i < n.exprs.size(); ++i)
      s += (i ? ", " : "") + (unresolved ? hint_parameter(n.exprs[i]) : with_ids(n.exprs[i]));
    s += "]";
  }
  if (n.num_partitions > 0) s += (n.exprs.empty() ? " " : ", ") + std::to_string(n.num_partitions);
  return s;
}

std::string node_line(const PlanNode& n) {
  switch (n.kind) {
    case PlanKind::kRange:
      return "Range (" + std::to_string(n.range_start) + ", " + std::to_string(n.range_end) + ", step=" +
             std::to_string(n.range_step) + ")";
    case PlanKind::kLocalRelation:
      if (n.checkpointed) return "LogicalRDD " + attr_list(n.output) + ", false";
      if (n.cached) return "InMemoryRelation " + attr_list(n.output) + ", " + n.cached->level.to_string();
      return "LocalRelation " + attr_list(n.output);
    case PlanKind::kRead: return "Relation " + n.read.format + " " + attr_list(n.output);
    case PlanKind::kUnresolvedRelation: {
      std::string s;
      for (auto& p : n.table_name) s += (s.empty() ? "" : ".") + p;
      return "'UnresolvedRelation [" + s + "]";
    }
    case PlanKind::kEmpty: return "LocalRelation <empty>, " + attr_list(n.output);
    case PlanKind::kProject: return "Project " + attr_list(n.exprs);
    case PlanKind::kFilter: return "Filter " + (n.condition ? n.condition->to_string() : "");
    case PlanKind::kAggregate: return "Aggregate " + attr_list(n.exprs) + ", " + attr_list(n.aggregates);
    case PlanKind::kSort: return std::string("Sort ") + attr_list(n.exprs) + ", " + (n.is_global ? "true" : "false");
    case PlanKind::kLimit: return (n.is_global ? "GlobalLimit " : "LocalLimit ") + std::to_string(n.limit);
    case PlanKind::kOffset: return "Offset " + std::to_string(n.limit);
    case PlanKind::kTail: return "Tail " + std::to_string(n.limit);
    case PlanKind::kDistinct: return "Deduplicate";
    case PlanKind::kSubqueryAlias: return "SubqueryAlias " + n.alias;
    case PlanKind::kSample: return "Sample";
    case PlanKind::kFlatMapGroups:
      return (n.exprs[0]->python && (n.exprs[0]->python->eval_type == static_cast<int>(exec::PythonEvalType::kGroupedMapArrowUdf) ||
                                     n.exprs[0]->python->eval_type == static_cast<int>(exec::PythonEvalType::kGroupedMapArrowIterUdf))
                  ? "FlatMapGroupsInArrow "
                  : "FlatMapGroupsInPandas ") +
             attr_list({n.exprs.begin() + 1, n.exprs.end()}) + ", " +
             n.exprs[0]->to_string() + ", " + attr_list(n.output);
    case PlanKind::kCoGroupMap:
      return "FlatMapCoGroupsInPandas " + attr_list({n.exprs.begin() + 1, n.exprs.end()}) + ", " +
             n.exprs[0]->to_string() + ", " + attr_list(n.output);
    case PlanKind::kMapPartitions:
      return (n.exprs[0]->python && n.exprs[0]->python->eval_type == static_cast<int>(exec::PythonEvalType::kMapArrowIterUdf) ? "MapInArrow " : "MapInPandas ") +
             n.exprs[0]->to_string() + ", " + attr_list(n.output);
    case PlanKind::kToDF: return "ToDF";
    case PlanKind::kWithColumns: return "WithColumns " + attr_list(n.exprs);
    case PlanKind::kWithColumnsRenamed: return "WithColumnsRenamed";
    case PlanKind::kDrop: return "Drop";
    case PlanKind::kRepartition: return repartition_line(n);
    case PlanKind::kHint: return hint_line(n);
    case PlanKind::kJoin: return "Join " + join_type_name(n.join_type) + (n.condition ? ", " + n.condition->to_string() : "");
    case PlanKind::kWindow: {
      const Expr& w = *n.exprs[0]->children[0];
      return "Window " + attr_list(n.exprs) + ", " + attr_list(w.partition_by) + ", " + attr_list(w.order_by);
    }
    case PlanKind::kGenerate: {
      // Spark's analyzed form, `Generate explode(arr#1), false, [col#2]`: the generator, outer,
      // the table alias of a LATERAL VIEW, the generated columns.
      const Expr& g = *n.exprs[0];
      if (g.kind != ExprKind::kGenerator) return "'Generate " + g.to_string();
      std::string args;
      for (size_t i = 0; i < g.children.size(); ++i) args += (i ? ", " : "") + with_ids(g.children[i]);
      std::string qualifier;
      if (!n.generator_output.empty() && !n.generator_output[0]->qualifier.empty())
        qualifier = n.generator_output[0]->qualifier.back() + ", ";
      return "Generate " + g.name + "(" + args + "), " + (g.outer ? "true" : "false") +
             ", " + qualifier + attr_list(n.generator_output);
    }
    case PlanKind::kPivot: return "'Pivot " + attr_list(n.pivot_columns) + ", " + attr_list(n.pivot_values) + ", " + attr_list(n.aggregates);
    case PlanKind::kUnpivot: return "'Unpivot " + attr_list(n.exprs) + ", " + n.alias;
    case PlanKind::kSetOp: return n.set_op == SetOpType::kUnion ? "Union" : (n.set_op == SetOpType::kIntersect ? "Intersect" : "Except");
  }
  return "?";
}

void lines(const PlanPtr& p, const std::string& prefix, bool last, bool root, std::string& out) {
  out += (root ? "" : prefix + (last ? "+- " : ":- ")) + node_line(*p) + "\n";
  std::string cp = root ? "" : prefix + (last ? "   " : ":  ");
  for (size_t i = 0; i < p->children.size(); ++i) lines(p->children[i], cp, i + 1 == p->children.size(), false, out);
}
}  // namespace

std::string expr_with_ids(const ExprPtr& e) {
  if (e->kind == ExprKind::kAttribute) return e->name + "#" + std::to_string(e->expr_id);
  if (e->children.empty() || !e->resolved()) return e->to_string();
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(attribute(expr_with_ids(c), c->type, c->nullable, -1));
  return with_children(e, std::move(kids))->to_string();
}

std::string plan_tree_string(const PlanPtr& plan) {
  std::string out;
  lines(plan, "", true, true, out);
  return out;
}

}  // namespace ember::plan
