// ColumnPruning: every operator keeps only the columns some operator above it reads. Walking
// down from the root with the set of attributes the parent needs, it drops the unused
// expressions of projections (and unused window expressions and aggregate outputs), narrows what passes through
// filters, sorts, limits and joins, narrows UNION ALL by position, and puts an attribute-only
// projection on the inputs of aggregates, joins, windows and generators where they would
// otherwise carry columns nobody reads. The root keeps its output.
//
// Into scans: the physical planner reads only the columns the plan above a scan needs, and
// does so only while this rule is enabled (optimizer_rule_enabled), so that excluding the rule
// with spark.sql.optimizer.excludedRules keeps every column from the scans up.

#include <map>
#include <set>

#include "common/config.h"
#include "plan/optimizer.h"
#include "plan/plan_equivalence.h"

namespace ember::plan {
namespace {

using Ids = std::set<int64_t>;

/// The attributes `e` reads, window specifications and aggregate filters included. False
/// when it holds a subquery, whose outer references this walk does not follow: the caller
/// then keeps every input column.
bool collect_reads(const ExprPtr& e, Ids& out) {
  if (!e) return true;
  if (e->kind == ExprKind::kSubquery) return false;
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  bool ok = collect_reads(e->filter, out);
  for (auto& c : e->children) ok = collect_reads(c, out) && ok;
  for (auto& c : e->partition_by) ok = collect_reads(c, out) && ok;
  for (auto& c : e->order_by) ok = collect_reads(c, out) && ok;
  return ok;
}

/// The attributes every expression of `node` reads; false as for collect_reads.
bool node_reads(const PlanNode& node, Ids& out) {
  bool ok = collect_reads(node.condition, out);
  for (auto* list : {&node.exprs, &node.aggregates})
    for (auto& e : *list) ok = collect_reads(e, out) && ok;
  for (auto& set : node.grouping_sets)
    for (auto& e : set) ok = collect_reads(e, out) && ok;
  return ok;
}

Ids ids_of(const std::vector<ExprPtr>& attrs) {
  Ids s;
  for (auto& a : attrs) s.insert(a->expr_id);
  return s;
}

/// `attrs` whose ids are in `keep`, in order.
std::vector<ExprPtr> only(const std::vector<ExprPtr>& attrs, const Ids& keep) {
  std::vector<ExprPtr> out;
  for (auto& a : attrs)
    if (keep.count(a->expr_id)) out.push_back(a);
  return out;
}

PlanPtr project_attributes(const PlanPtr& child, std::vector<ExprPtr> attrs) {
  auto p = std::make_shared<PlanNode>();
  p->kind = PlanKind::kProject;
  p->exprs = attrs;
  p->output = std::move(attrs);
  p->resolved = true;
  p->children = {child};
  return p;
}


/// One walk of the plan. A repeated subplan keeps its whole output, so that its places stay
/// equivalent and run once; a projection above each place narrows it.
struct Pruner {
  std::set<const PlanNode*> shared;

  /// `n` rewritten so that its output holds at least the attributes `need` (in the same
  /// order as before, possibly fewer others).
  PlanPtr prune(const PlanPtr& n, const Ids& need) {
    if (shared.count(n.get())) {
      bool whole = true;
      for (auto& a : n->output) whole = whole && need.count(a->expr_id) > 0;
      if (!whole) return prune(n, ids_of(n->output));
    }
    switch (n->kind) {
      case PlanKind::kProject: {
        std::vector<ExprPtr> kept;
        for (auto& e : n->exprs)
          if (need.count(to_attribute(e)->expr_id) || !e->deterministic()) kept.push_back(e);
        Ids reads;
        bool all = false;
        for (auto& e : kept) all |= !collect_reads(e, reads);
        PlanPtr child = prune_child(n->children[0], all ? nullptr : &reads, false);
        if (kept.size() == n->exprs.size() && child == n->children[0]) return n;
        auto copy = std::make_shared<PlanNode>(*n);
        copy->exprs = kept;
        copy->output.clear();
        for (auto& e : kept) copy->output.push_back(to_attribute(e));
        copy->children = {child};
        return copy;
      }
      case PlanKind::kFilter:
      case PlanKind::kSort:
      case PlanKind::kLimit:
      case PlanKind::kOffset:
      case PlanKind::kTail:
      case PlanKind::kSample:
      case PlanKind::kRepartition:
      case PlanKind::kHint:
      case PlanKind::kSubqueryAlias:
      case PlanKind::kDistinct: {
        // The output is the input's: what passes is what the parent needs, plus what the node
        // itself reads.
        if (n->kind == PlanKind::kDistinct && n->exprs.empty()) return keep_inputs(n);
        // randomSplit orders its input by every column before sampling.
        if (n->kind == PlanKind::kSample && n->sample_sorted_input) return keep_inputs(n);
        Ids reads = need;
        if (!node_reads(*n, reads)) return keep_inputs(n);
        PlanPtr child = prune_child(n->children[0], &reads, false);
        std::vector<ExprPtr> out = only(n->output, ids_of(child->output));
        return narrowed(n, {child}, &out);
      }
      case PlanKind::kAggregate: {
        // Outputs nobody reads are not computed (one stays, so that the groups still count).
        PlanPtr agg = n;
        if (n->output.size() == n->aggregates.size()) {
          std::vector<ExprPtr> kept;
          for (auto& e : n->aggregates)
            if (need.count(to_attribute(e)->expr_id) || !e->deterministic()) kept.push_back(e);
          if (kept.empty() && !n->aggregates.empty()) kept.push_back(n->aggregates[0]);
          if (kept.size() != n->aggregates.size()) {
            auto copy = std::make_shared<PlanNode>(*n);
            copy->aggregates = kept;
            copy->output.clear();
            for (auto& e : kept) copy->output.push_back(to_attribute(e));
            agg = copy;
          }
        }
        Ids reads;
        if (!node_reads(*agg, reads)) return keep_inputs(agg);
        return narrowed(agg, {prune_child(agg->children[0], &reads, true)}, nullptr);
      }
      case PlanKind::kWindow: {
        std::vector<ExprPtr> kept;
        for (auto& e : n->exprs)
          if (need.count(to_attribute(e)->expr_id)) kept.push_back(e);
        Ids reads = need;
        if (kept.empty()) return prune(n->children[0], reads);
        for (auto& e : kept)
          if (!collect_reads(e, reads)) return keep_inputs(n);
        PlanPtr child = prune_child(n->children[0], &reads, true);
        if (child == n->children[0] && kept.size() == n->exprs.size()) return n;
        auto copy = std::make_shared<PlanNode>(*n);
        copy->children = {child};
        copy->exprs = kept;
        copy->output = child->output;
        for (auto& e : kept) copy->output.push_back(to_attribute(e));
        return copy;
      }
      case PlanKind::kGenerate: {
        Ids reads = need;
        if (!node_reads(*n, reads)) return keep_inputs(n);
        for (auto& a : n->generator_output) reads.erase(a->expr_id);
        PlanPtr child = prune_child(n->children[0], &reads, true);
        std::vector<ExprPtr> out = only(n->output, ids_of(child->output));
        out.insert(out.end(), n->generator_output.begin(), n->generator_output.end());
        return narrowed(n, {child}, &out);
      }
      case PlanKind::kJoin: {
        Ids reads = need;
        // A lateral subquery reads the left side's columns from within.
        if (n->lateral || !node_reads(*n, reads)) return keep_inputs(n);
        PlanPtr left = prune_child(n->children[0], &reads, true);
        PlanPtr right = prune_child(n->children[1], &reads, true);
        Ids kept = ids_of(left->output);
        for (auto& a : right->output) kept.insert(a->expr_id);
        if (n->join_type == JoinType::kExistence) kept.insert(to_attribute(n->exprs[0])->expr_id);
        std::vector<ExprPtr> out = only(n->output, kept);
        return narrowed(n, {left, right}, &out);
      }
      case PlanKind::kSetOp: {
        if (n->set_op != SetOpType::kUnion || !n->is_all) return keep_inputs(n);
        std::vector<size_t> positions;
        for (size_t i = 0; i < n->output.size(); ++i)
          if (need.count(n->output[i]->expr_id)) positions.push_back(i);
        if (positions.empty() && !n->output.empty()) positions.push_back(0);  // rows still count
        std::vector<PlanPtr> kids;
        for (auto& c : n->children) {
          std::vector<ExprPtr> cols;
          for (size_t i : positions) cols.push_back(c->output[i]);
          PlanPtr k = prune(c, ids_of(cols));
          bool exact = k->output.size() == cols.size();
          for (size_t i = 0; exact && i < cols.size(); ++i) exact = k->output[i]->expr_id == cols[i]->expr_id;
          kids.push_back(exact ? k : project_attributes(k, cols));
        }
        std::vector<ExprPtr> out;
        for (size_t i : positions) out.push_back(n->output[i]);
        return narrowed(n, kids, &out);
      }
      case PlanKind::kMapPartitions:
      case PlanKind::kFlatMapGroups:
      case PlanKind::kCoGroupMap:
      default:
        return keep_inputs(n);
    }
  }

  /// `n` with every input column kept (the inputs pruned below their own outputs only).
  PlanPtr keep_inputs(const PlanPtr& n) {
    std::vector<PlanPtr> kids;
    for (auto& c : n->children) kids.push_back(prune(c, ids_of(c->output)));
    return narrowed(n, kids, nullptr);
  }

  /// The pruned input `child` of a node that reads `reads` of it (nullptr: every column).
  /// With `exact`, columns the pruned input still carries beyond those are cut by an
  /// attribute-only projection (Spark's pruned child under aggregates, joins, windows).
  PlanPtr prune_child(const PlanPtr& child, const Ids* reads, bool exact) {
    if (!reads) return prune(child, ids_of(child->output));
    PlanPtr k = prune(child, *reads);
    if (!exact) return k;
    std::vector<ExprPtr> cols = only(k->output, *reads);
    if (cols.size() == k->output.size()) return k;
    return project_attributes(k, cols);
  }

  /// `n` over `kids` with output `out` (nullptr: unchanged), or `n` itself when nothing
  /// changed.
  static PlanPtr narrowed(const PlanPtr& n, std::vector<PlanPtr> kids, const std::vector<ExprPtr>* out) {
    bool same = kids.size() == n->children.size();
    for (size_t i = 0; same && i < kids.size(); ++i) same = kids[i] == n->children[i];
    if (same && (!out || out->size() == n->output.size())) return n;
    auto copy = std::make_shared<PlanNode>(*n);
    copy->children = std::move(kids);
    if (out) copy->output = *out;
    return copy;
  }
};

class ColumnPruning final : public Rule {
 public:
  const char* name() const override { return "ColumnPruning"; }
  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    if (!plan->resolved) return plan;
    Pruner p;
    if (conf.get_bool("spark.sql.exchange.reuse", true)) {
      for (auto& members : repeated_subplans(plan))
        for (auto& m : members) p.shared.insert(m.get());
    }
    return p.prune(plan, ids_of(plan->output));
  }
};

}  // namespace

std::unique_ptr<Rule> make_column_pruning() { return std::make_unique<ColumnPruning>(); }

}  // namespace ember::plan
