#include "plan/physical_planner.h"
#include "plan/scan_predicates.h"

#include <functional>
#include <map>
#include <set>

#include "common/error.h"
#include "exec/deduplicate.h"
#include "exec/hash_join.h"
#include "exec/operators.h"
#include "exec/window.h"
#include "plan/analyzer.h"
#include "plan/gpu_placement.h"

namespace ember::plan {
namespace {

using exec::PhysExpr;
using exec::PhysExprPtr;

void collect_refs(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  for (auto& c : e->children) collect_refs(c, out);
  if (e->filter) collect_refs(e->filter, out);
}

/// The text plans show for an expression: Spark's rendering with attribute ids (`amount#12`).
std::string display_of(const ExprPtr& e) {
  if (e->kind == ExprKind::kAttribute) return e->name + "#" + std::to_string(e->expr_id);
  if (e->kind == ExprKind::kAlias) return display_of(e->children[0]) + " AS " + e->name + "#" + std::to_string(e->expr_id);
  if (e->children.empty()) return e->to_string();
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(attribute(display_of(c), c->type, c->nullable, -1));
  return with_children(e, std::move(kids))->to_string();
}

PhysExprPtr bind_expr(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf);

PhysExprPtr bind_expr_impl(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf);

PhysExprPtr bind_expr(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf) {
  PhysExprPtr p = bind_expr_impl(e, input, conf);
  const_cast<PhysExpr*>(p.get())->display = display_of(e);
  return p;
}

PhysExprPtr bind_expr_impl(const ExprPtr& e, const std::vector<ExprPtr>& input, const Config& conf) {
  auto p = std::make_shared<PhysExpr>();
  p->type = e->type;
  p->nullable = e->nullable;
  switch (e->kind) {
    case ExprKind::kAttribute: {
      for (size_t i = 0; i < input.size(); ++i) {
        if (input[i]->expr_id == e->expr_id) {
          p->kind = PhysExpr::Kind::kColumn;
          p->column = static_cast<int>(i);
          return p;
        }
      }
      EMBER_UNREACHABLE("binding: attribute " + e->name + "#" + std::to_string(e->expr_id) + " not in input");
    }
    case ExprKind::kAlias: return bind_expr(e->children[0], input, conf);
    case ExprKind::kLiteral:
      p->kind = PhysExpr::Kind::kLiteral;
      p->value = e->value;
      return p;
    case ExprKind::kCast:
      p->kind = PhysExpr::Kind::kCast;
      p->try_cast = e->try_;
      break;
    case ExprKind::kCall: {
      p->kind = PhysExpr::Kind::kCall;
      p->function = e->function;
      p->signature = call_signature(*e->function, e->children, conf);
      break;
    }
    case ExprKind::kCaseWhen:
      p->kind = PhysExpr::Kind::kCaseWhen;
      p->has_else = e->has_else;
      break;
    case ExprKind::kIf: p->kind = PhysExpr::Kind::kIf; break;
    case ExprKind::kCoalesce: p->kind = PhysExpr::Kind::kCoalesce; break;
    case ExprKind::kGetField:
      p->kind = PhysExpr::Kind::kGetField;
      p->ordinal = e->ordinal;
      break;
    default: EMBER_UNREACHABLE("binding: unexpected expression " + e->to_string());
  }
  for (auto& c : e->children) p->children.push_back(bind_expr(c, input, conf));
  return p;
}

/// Rewrites an aggregate output expression over the hash aggregate's output: grouping
/// expressions and aggregate calls become references to its columns.
ExprPtr rewrite_over_aggregate(const ExprPtr& e, const std::map<std::string, ExprPtr>& replacements) {
  auto it = replacements.find(semantic_key(e));
  if (it != replacements.end() && e->kind != ExprKind::kAlias) return it->second;
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(rewrite_over_aggregate(c, replacements));
  return with_children(e, std::move(kids));
}

void collect_aggregates(const ExprPtr& e, std::vector<ExprPtr>& out, std::set<std::string>& seen) {
  if (e->kind == ExprKind::kAggregate) {
    if (seen.insert(semantic_key(e)).second) out.push_back(e);
    return;
  }
  for (auto& c : e->children) collect_aggregates(c, out, seen);
}

class Planner {
 public:
  explicit Planner(Session& s) : session_(s), gpu_(s.config()) {}
  GpuPlacement& gpu() { return gpu_; }

  /// `required`: expr ids the parent needs (nullptr = all output).
  PhysicalPlan plan(const PlanPtr& n, const std::set<int64_t>* required) {
    const Config& conf = session_.config();
    auto needed = [&](const ExprPtr& a) { return !required || required->count(a->expr_id) > 0; };
    switch (n->kind) {
      case PlanKind::kRange: {
        PhysicalPlan p;
        p.root = std::make_unique<exec::RangeScan>(n->range_start, n->range_end, n->range_step);
        gpu_.note_range(p.root.get(), n->range_start, n->range_end, n->range_step);  // GPU placement
        p.output = n->output;
        return p;
      }
      case PlanKind::kLocalRelation:
      case PlanKind::kEmpty: {
        std::vector<int> proj;
        PhysicalPlan p;
        for (size_t i = 0; i < n->output.size(); ++i)
          if (needed(n->output[i])) {
            proj.push_back(static_cast<int>(i));
            p.output.push_back(n->output[i]);
          }
        p.root = std::make_unique<exec::LocalScan>(n->batches, proj);
        for (int i : proj) p.root->schema.push_back(n->schema[static_cast<size_t>(i)]);
        return p;
      }
      case PlanKind::kRead: {
        std::vector<int> proj;
        PhysicalPlan p;
        for (size_t i = 0; i < n->output.size(); ++i)
          if (needed(n->output[i])) {
            proj.push_back(static_cast<int>(i));
            p.output.push_back(n->output[i]);
          }
        p.root = std::make_unique<exec::FileScan>(n->reader, n->read.format, proj);
        return p;
      }
      case PlanKind::kProject: {
        std::vector<ExprPtr> exprs;
        for (auto& e : n->exprs)
          if (needed(to_attribute(e))) exprs.push_back(e);
        std::set<int64_t> req;
        for (auto& e : exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        std::vector<PhysExprPtr> bound;
        PhysicalPlan p;
        for (auto& e : exprs) {
          bound.push_back(bind_expr(e, c.output, conf));
          p.output.push_back(to_attribute(e));
        }
        p.root = std::make_unique<exec::Project>(bound);
        gpu_.note_project(p.root.get(), std::move(bound));  // GPU placement
        p.root->children.push_back(std::move(c.root));
        return p;
      }
      case PlanKind::kFilter: {
        std::set<int64_t> req = required ? *required : ids(n->output);
        collect_refs(n->condition, req);
        PhysicalPlan c = plan(n->children[0], &req);
        if (n->children[0]->kind == PlanKind::kRead) {
          // Sources may skip splits (Parquet row groups) that cannot match.
          auto* scan = dynamic_cast<exec::FileScan*>(c.root.get());
          if (scan) scan->set_predicates(scan_predicates(n->condition, n->children[0]->output));
        }
        PhysicalPlan p;
        PhysExprPtr condition = bind_expr(n->condition, c.output, conf);
        p.root = std::make_unique<exec::Filter>(condition);
        gpu_.note_filter(p.root.get(), std::move(condition));  // GPU placement
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kAggregate: return plan_aggregate(n, conf);
      case PlanKind::kJoin: return plan_join(n, required, conf);
      case PlanKind::kDistinct: {
        // Only dropDuplicates(subset) reaches here; a full distinct is an Aggregate.
        std::set<int64_t> req = required ? *required : ids(n->output);
        for (auto& e : n->exprs) collect_refs(e, req);
        PhysicalPlan c = plan(n->children[0], &req);
        std::vector<exec::PhysExprPtr> keys;
        for (auto& e : n->exprs) keys.push_back(bind_expr(e, c.output, conf));
        PhysicalPlan p;
        p.root = std::make_unique<exec::Deduplicate>(std::move(keys));
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kSort: return plan_sort(n, required, -1);
      case PlanKind::kWindow: return plan_window(n, required, conf);
      case PlanKind::kLimit:
      case PlanKind::kOffset:
      case PlanKind::kTail: {
        // Sort followed by limit is a top-N.
        if (n->kind == PlanKind::kLimit && n->children[0]->kind == PlanKind::kSort)
          return plan_sort(n->children[0], required, n->limit);
        PhysicalPlan c = plan(n->children[0], required);
        PhysicalPlan p;
        if (n->kind == PlanKind::kLimit) p.root = std::make_unique<exec::Limit>(n->limit, 0, false);
        else if (n->kind == PlanKind::kOffset) p.root = std::make_unique<exec::Limit>(-1, n->limit, false);
        else p.root = std::make_unique<exec::Limit>(n->limit, 0, true);
        p.root->children.push_back(std::move(c.root));
        p.output = c.output;
        return p;
      }
      case PlanKind::kSubqueryAlias:
      case PlanKind::kRepartition:
      case PlanKind::kHint: {
        PhysicalPlan c = plan(n->children[0], required);
        // Subquery aliases re-qualify attributes but keep their ids.
        return c;
      }
      case PlanKind::kSetOp: {
        // Union by position: the children's columns map onto this node's attributes.
        auto u = std::make_unique<exec::UnionAll>();
        for (auto& child : n->children) {
          PhysicalPlan c = plan(child, nullptr);
          std::vector<PhysExprPtr> cols;
          for (auto& a : child->output) cols.push_back(bind_expr(a, c.output, conf));
          auto proj = std::make_unique<exec::Project>(std::move(cols));
          proj->children.push_back(std::move(c.root));
          u->children.push_back(std::move(proj));
        }
        PhysicalPlan p;
        p.root = std::move(u);
        p.output = n->output;
        if (required) {
          // Keep every column; a projection above prunes what the parent does not need.
        }
        return p;
      }
      default:
        throw SparkError(ErrorKind::kUnsupportedOperation, "UNSUPPORTED_FEATURE",
                         "Physical planning of " + plan_tree_string(n) + " is not supported yet.");
    }
  }

 private:
  static std::set<int64_t> ids(const std::vector<ExprPtr>& attrs) {
    std::set<int64_t> s;
    for (auto& a : attrs) s.insert(a->expr_id);
    return s;
  }

  static void split_conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
    if (e->kind == ExprKind::kCall && e->function && e->function->name == "and") {
      for (auto& c : e->children) split_conjuncts(c, out);
      return;
    }
    out.push_back(e);
  }

  static bool refs_within(const ExprPtr& e, const std::set<int64_t>& side) {
    std::set<int64_t> refs;
    collect_refs(e, refs);
    for (int64_t r : refs)
      if (!side.count(r)) return false;
    return !refs.empty();
  }

  /// Joins: equalities between one expression of each side become hash keys; the whole
  /// condition stays as a filter on candidate pairs when any other conjunct remains.
  PhysicalPlan plan_join(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf) {
    const PlanPtr& left = n->children[0];
    const PlanPtr& right = n->children[1];
    std::set<int64_t> req = required ? *required : ids(n->output);
    if (n->join_type == JoinType::kLeftSemi || n->join_type == JoinType::kLeftAnti)
      for (auto& a : left->output) req.insert(a->expr_id);
    if (n->condition) collect_refs(n->condition, req);
    PhysicalPlan l = plan(left, &req);
    PhysicalPlan r = plan(right, &req);
    std::set<int64_t> lids = ids(l.output), rids = ids(r.output);
    std::vector<ExprPtr> conjuncts;
    if (n->condition) split_conjuncts(n->condition, conjuncts);
    std::vector<exec::PhysExprPtr> lkeys, rkeys;
    std::vector<bool> null_safe;
    bool residual = false;
    for (auto& c : conjuncts) {
      bool is_eq = c->kind == ExprKind::kCall && c->function &&
                   (c->function->name == "==" || c->function->name == "<=>") && c->children.size() == 2;
      if (is_eq && c->children[0]->type->equals(*c->children[1]->type)) {
        const ExprPtr& a = c->children[0];
        const ExprPtr& b = c->children[1];
        const ExprPtr* lk = nullptr;
        const ExprPtr* rk = nullptr;
        if (refs_within(a, lids) && refs_within(b, rids)) lk = &a, rk = &b;
        else if (refs_within(b, lids) && refs_within(a, rids)) lk = &b, rk = &a;
        if (lk) {
          lkeys.push_back(bind_expr(*lk, l.output, conf));
          rkeys.push_back(bind_expr(*rk, r.output, conf));
          null_safe.push_back(c->function->name == "<=>");
          continue;
        }
      }
      residual = true;
    }
    std::vector<ExprPtr> both = l.output;
    both.insert(both.end(), r.output.begin(), r.output.end());
    exec::PhysExprPtr condition = residual ? bind_expr(n->condition, both, conf) : nullptr;
    exec::HashJoinKind kind = exec::HashJoinKind::kInner;
    switch (n->join_type) {
      case JoinType::kInner:
      case JoinType::kCross: kind = exec::HashJoinKind::kInner; break;
      case JoinType::kLeftOuter: kind = exec::HashJoinKind::kLeftOuter; break;
      case JoinType::kRightOuter: kind = exec::HashJoinKind::kRightOuter; break;
      case JoinType::kFullOuter: kind = exec::HashJoinKind::kFullOuter; break;
      case JoinType::kLeftSemi: kind = exec::HashJoinKind::kLeftSemi; break;
      case JoinType::kLeftAnti: kind = exec::HashJoinKind::kLeftAnti; break;
    }
    std::vector<TypePtr> ltypes, rtypes;
    for (auto& a : l.output) ltypes.push_back(a->type);
    for (auto& a : r.output) rtypes.push_back(a->type);
    PhysicalPlan p;
    p.root = std::make_unique<exec::HashJoin>(kind, std::move(lkeys), std::move(rkeys), std::move(null_safe),
                                              std::move(condition), std::move(ltypes), std::move(rtypes));
    p.root->children.push_back(std::move(l.root));
    p.root->children.push_back(std::move(r.root));
    bool semi = kind == exec::HashJoinKind::kLeftSemi || kind == exec::HashJoinKind::kLeftAnti;
    // Output attributes carry the join's nullability (outer sides become nullable).
    std::map<int64_t, ExprPtr> by_id;
    for (auto& a : n->output) by_id[a->expr_id] = a;
    for (auto& a : semi ? l.output : both) {
      auto it = by_id.find(a->expr_id);
      p.output.push_back(it != by_id.end() ? it->second : a);
    }
    return p;
  }

  PhysicalPlan plan_sort(const PlanPtr& n, const std::set<int64_t>* required, int64_t limit) {
    const Config& conf = session_.config();
    std::set<int64_t> req = required ? *required : ids(n->output);
    for (auto& e : n->exprs) collect_refs(e, req);
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<exec::SortKey> keys;
    for (auto& o : n->exprs) keys.push_back({bind_expr(o->children[0], c.output, conf), o->ascending, o->nulls_first});
    PhysicalPlan p;
    std::vector<exec::SortKey> gpu_keys = keys;
    p.root = std::make_unique<exec::Sort>(std::move(keys), limit);
    gpu_.note_sort(p.root.get(), std::move(gpu_keys), limit);  // GPU placement
    p.root->children.push_back(std::move(c.root));
    p.output = c.output;
    return p;
  }

  /// A Window node: the child's columns the parent needs, plus those the window expressions
  /// read, flow through; one column per window expression follows them.
  PhysicalPlan plan_window(const PlanPtr& n, const std::set<int64_t>* required, const Config& conf) {
    std::set<int64_t> req = required ? *required : ids(n->output);
    const Expr& spec = *n->exprs[0]->children[0];
    for (auto& a : n->exprs) collect_refs(a, req);
    for (auto& p : spec.partition_by) collect_refs(p, req);
    for (auto& o : spec.order_by) collect_refs(o, req);
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<PhysExprPtr> partition;
    for (auto& p : spec.partition_by) partition.push_back(bind_expr(p, c.output, conf));
    std::vector<exec::SortKey> order;
    for (auto& o : spec.order_by) order.push_back({bind_expr(o->children[0], c.output, conf), o->ascending, o->nulls_first});
    std::vector<exec::WindowCall> calls;
    PhysicalPlan p;
    p.output = c.output;
    for (auto& a : n->exprs) {
      const Expr& w = *a->children[0];
      const ExprPtr& fn = w.children[0];
      exec::WindowCall call;
      call.type = fn->type;
      call.display = display_of(fn) + " windowspecdefinition(" + w.frame.to_string() + ") AS " + a->name + "#" +
                     std::to_string(a->expr_id);
      call.frame.rows = w.frame.type == WindowFrame::Type::kRows;
      call.frame.lower = w.frame.lower;
      call.frame.upper = w.frame.upper;
      call.ignore_nulls = fn->ignore_nulls;
      using K = exec::WindowCall::Kind;
      if (fn->kind == ExprKind::kAggregate) {
        call.kind = K::kAggregate;
        call.function = fn->function;
        for (auto& arg : fn->children) call.args.push_back(bind_expr(arg, c.output, conf));
        call.signature = call_signature(*fn->function, fn->children, conf);
        if (fn->filter) call.filter = bind_expr(fn->filter, c.output, conf);
      } else {
        static const std::map<std::string, K> kinds = {
            {"row_number", K::kRowNumber}, {"rank", K::kRank}, {"dense_rank", K::kDenseRank},
            {"percent_rank", K::kPercentRank}, {"cume_dist", K::kCumeDist}, {"ntile", K::kNtile},
            {"lag", K::kLag}, {"lead", K::kLead}, {"first", K::kFirst}, {"first_value", K::kFirst},
            {"last", K::kLast}, {"last_value", K::kLast}, {"nth_value", K::kNthValue}};
        call.kind = kinds.at(fn->name);
        switch (call.kind) {
          case K::kNtile: call.offset = fn->children[0]->value.as_int(); break;
          case K::kLag:
          case K::kLead:
            call.offset = fn->children[1]->value.as_int();
            call.args = {bind_expr(fn->children[0], c.output, conf), bind_expr(fn->children[2], c.output, conf)};
            break;
          case K::kNthValue:
            call.offset = fn->children[1]->value.as_int();
            call.args = {bind_expr(fn->children[0], c.output, conf)};
            break;
          case K::kFirst:
          case K::kLast: call.args = {bind_expr(fn->children[0], c.output, conf)}; break;
          default: break;
        }
      }
      calls.push_back(std::move(call));
      p.output.push_back(to_attribute(a));
    }
    p.root = std::make_unique<exec::Window>(std::move(partition), std::move(order), std::move(calls));
    for (auto& a : c.output) p.root->schema.push_back({a->name, a->type, a->nullable});
    for (auto& a : n->exprs) p.root->schema.push_back({a->name, a->type, a->nullable});
    p.root->children.push_back(std::move(c.root));
    return p;
  }

  PhysicalPlan plan_aggregate(const PlanPtr& n, const Config& conf) {
    std::set<int64_t> req;
    for (auto& g : n->exprs) collect_refs(g, req);
    for (auto& a : n->aggregates) collect_refs(a, req);
    PhysicalPlan c = plan(n->children[0], &req);
    std::vector<PhysExprPtr> keys;
    std::vector<ExprPtr> agg_output;  // attributes of the HashAggregate's columns
    std::map<std::string, ExprPtr> replacements;
    for (auto& g : n->exprs) {
      keys.push_back(bind_expr(g, c.output, conf));
      ExprPtr attr = g->kind == ExprKind::kAttribute ? g : attribute(g->kind == ExprKind::kAlias ? g->name : g->to_string(), g->type, g->nullable, new_expr_id());
      agg_output.push_back(attr);
      replacements[semantic_key(g)] = attr;
    }
    std::vector<ExprPtr> calls_found;
    std::set<std::string> seen;
    for (auto& a : n->aggregates) collect_aggregates(a, calls_found, seen);
    std::vector<exec::AggregateCall> calls;
    for (auto& call : calls_found) {
      exec::AggregateCall ac;
      ac.distinct = call->distinct;
      ac.function = call->function;
      ac.display = display_of(call);
      for (auto& arg : call->children) ac.args.push_back(bind_expr(arg, c.output, conf));
      ac.signature = call_signature(*call->function, call->children, conf);
      if (call->filter) ac.filter = bind_expr(call->filter, c.output, conf);
      calls.push_back(std::move(ac));
      ExprPtr attr = attribute(call->to_string(), call->type, call->nullable, new_expr_id());
      agg_output.push_back(attr);
      replacements[semantic_key(call)] = attr;
    }
    auto agg = std::make_unique<exec::HashAggregate>(keys, calls);
    gpu_.note_aggregate(agg.get(), std::move(keys), std::move(calls));  // GPU placement
    agg->children.push_back(std::move(c.root));
    // Final projection of the aggregate's output expressions.
    std::vector<PhysExprPtr> proj;
    PhysicalPlan p;
    for (auto& out : n->aggregates) {
      ExprPtr inner = out->kind == ExprKind::kAlias ? out->children[0] : out;
      ExprPtr rewritten = rewrite_over_aggregate(inner, replacements);
      proj.push_back(bind_expr(rewritten, agg_output, conf));
      p.output.push_back(to_attribute(out));
    }
    p.root = std::make_unique<exec::Project>(std::move(proj));
    p.root->children.push_back(std::move(agg));
    return p;
  }

  Session& session_;
  GpuPlacement gpu_;  // notes bound expressions for GPU placement (plan/gpu_placement.h)
};

}  // namespace

PhysicalPlan create_physical_plan(const PlanPtr& plan, Session& session) {
  Planner planner(session);
  PhysicalPlan p = planner.plan(plan, nullptr);
  p.gpu_explain = planner.gpu().apply(p.root);  // GPU placement
  return p;
}

}  // namespace ember::plan
