#include "plan/logical_plan.h"

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

/// An expression as Spark's plans show it, attributes with their ids (`array(id#0, 1)`).
std::string with_ids(const ExprPtr& e) {
  if (e->kind == ExprKind::kAttribute) return e->name + "#" + std::to_string(e->expr_id);
  if (e->children.empty() || !e->resolved()) return e->to_string();
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(attribute(with_ids(c), c->type, c->nullable, -1));
  return with_children(e, std::move(kids))->to_string();
}

std::string node_line(const PlanNode& n) {
  switch (n.kind) {
    case PlanKind::kRange:
      return "Range (" + std::to_string(n.range_start) + ", " + std::to_string(n.range_end) + ", step=" +
             std::to_string(n.range_step) + ")";
    case PlanKind::kLocalRelation:
      if (n.checkpointed) return "LogicalRDD " + attr_list(n.output) + ", false";
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
    case PlanKind::kLimit: return "GlobalLimit " + std::to_string(n.limit);
    case PlanKind::kOffset: return "Offset " + std::to_string(n.limit);
    case PlanKind::kTail: return "Tail " + std::to_string(n.limit);
    case PlanKind::kDistinct: return "Deduplicate";
    case PlanKind::kSubqueryAlias: return "SubqueryAlias " + n.alias;
    case PlanKind::kSample: return "Sample";
    case PlanKind::kToDF: return "ToDF";
    case PlanKind::kWithColumns: return "WithColumns " + attr_list(n.exprs);
    case PlanKind::kWithColumnsRenamed: return "WithColumnsRenamed";
    case PlanKind::kDrop: return "Drop";
    case PlanKind::kRepartition: return "Repartition";
    case PlanKind::kHint: return "ResolvedHint";
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

std::string plan_tree_string(const PlanPtr& plan) {
  std::string out;
  lines(plan, "", true, true, out);
  return out;
}

}  // namespace ember::plan
