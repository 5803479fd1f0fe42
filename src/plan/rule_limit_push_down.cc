// LimitPushDown: a limit lets the operators below it stop early. Ember's Limit is Spark's
// GlobalLimit over LocalLimit (at most n rows in all); a LocalLimit (a kLimit that is not
// global) promises only that any n rows of its input will do, so it may go where a subset
// of the rows is enough to produce the n rows above:
//   - into each input of a UNION ALL, also through subquery aliases and deterministic
//     projections above it (which Spark's optimizer has removed by then);
//   - into the preserved side of a left or right outer join with a condition, into both sides
//     of a join without a condition (not a full outer join with one), into the left side of a
//     left semi or anti join without a condition, through a projection to reach a join;
//   - below an offset, as a limit of limit + offset rows;
//   - through a deterministic projection onto a sort, which the physical plan then runs as a
//     top-N sort;
//   - below ranking windows without partitions (row_number, rank, dense_rank), as a top-N sort
//     of their input in the window's order (Spark's LimitPushDownThroughWindow);
//   - and a left semi or anti join without a condition needs one row of its right side.
// A limit goes nowhere an input already has at most that many rows.

#include <limits>
#include <optional>

#include "plan/analyzer.h"
#include "plan/cardinality.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

PlanPtr local_limit(int64_t limit, const PlanPtr& child) {
  auto l = std::make_shared<PlanNode>();
  l->kind = PlanKind::kLimit;
  l->is_global = false;
  l->limit = limit;
  l->output = child->output;
  l->resolved = true;
  l->children = {child};
  return l;
}

/// `child` under a LocalLimit of `limit`, unless it has no more rows than that already.
PlanPtr maybe_push(int64_t limit, const PlanPtr& child) {
  auto rows = max_rows(child);
  if (rows && *rows <= limit) return child;
  return local_limit(limit, child);
}

PlanPtr replace_children(const PlanPtr& n, std::vector<PlanPtr> kids) {
  bool same = true;
  for (size_t i = 0; i < kids.size(); ++i) same &= kids[i] == n->children[i];
  if (same) return n;
  auto copy = std::make_shared<PlanNode>(*n);
  copy->children = std::move(kids);
  return copy;
}

PlanPtr push_through_join(int64_t limit, const PlanPtr& join) {
  const PlanPtr& l = join->children[0];
  const PlanPtr& r = join->children[1];
  const bool cond = join->condition != nullptr;
  switch (join->join_type) {
    case JoinType::kLeftOuter:
      if (join->single_match) return join;
      return cond ? replace_children(join, {maybe_push(limit, l), r})
                  : replace_children(join, {maybe_push(limit, l), maybe_push(limit, r)});
    case JoinType::kRightOuter:
      return cond ? replace_children(join, {l, maybe_push(limit, r)})
                  : replace_children(join, {maybe_push(limit, l), maybe_push(limit, r)});
    case JoinType::kInner:
    case JoinType::kCross:
    case JoinType::kFullOuter:
      return cond ? join : replace_children(join, {maybe_push(limit, l), maybe_push(limit, r)});
    case JoinType::kLeftSemi:
    case JoinType::kLeftAnti:
      return cond ? join : replace_children(join, {maybe_push(limit, l), r});
    default: return join;
  }
}

bool has_python(const ExprPtr& e) {
  if (e->kind == ExprKind::kPythonUdf || e->kind == ExprKind::kSubquery) return true;
  for (auto& c : e->children)
    if (has_python(c)) return true;
  return false;
}

/// A projection a limit may pass: it computes one row per input row and nothing in it
/// depends on which rows it sees.
bool transparent_project(const PlanNode& p) {
  for (auto& e : p.exprs)
    if (!e->deterministic() || has_python(e) || e->kind == ExprKind::kGenerator) return false;
  return true;
}

/// `p` with `limit` pushed into each input of the UNION ALL below its subquery aliases and
/// deterministic projections (one row above for each row of the union); null when no such union
/// lies there.
PlanPtr push_into_union(int64_t limit, const PlanPtr& p) {
  switch (p->kind) {
    case PlanKind::kSetOp: {
      if (p->set_op != SetOpType::kUnion || !p->is_all) return nullptr;
      std::vector<PlanPtr> kids;
      for (auto& c : p->children) kids.push_back(maybe_push(limit, c));
      return replace_children(p, std::move(kids));
    }
    case PlanKind::kProject:
      if (!transparent_project(*p)) return nullptr;
      [[fallthrough]];
    case PlanKind::kSubqueryAlias: {
      PlanPtr below = push_into_union(limit, p->children[0]);
      return below ? replace_children(p, {below}) : nullptr;
    }
    default: return nullptr;
  }
}

/// Ranking windows without partitions number each row by the rows before it in the window's
/// order (row_number, rank and dense_rank over ROWS UNBOUNDED PRECEDING to CURRENT ROW), so the
/// first n rows in that order keep their numbers: `window` over the top n rows of its input, as
/// Spark's LimitPushDownThroughWindow does; null when the window is of another kind, has
/// partitions, or its input has no more than n rows.
PlanPtr push_through_window(int64_t limit, const PlanPtr& window) {
  if (window->exprs.empty()) return nullptr;
  const Expr* spec = nullptr;
  for (auto& e : window->exprs) {
    const Expr* w = e->kind == ExprKind::kAlias ? e->children[0].get() : e.get();
    if (w->kind != ExprKind::kWindow || w->children.empty()) return nullptr;
    const Expr& fn = *w->children[0];
    if (fn.kind != ExprKind::kWindowFunction ||
        (fn.name != "row_number" && fn.name != "rank" && fn.name != "dense_rank"))
      return nullptr;
    if (w->frame.type != WindowFrame::Type::kRows || !w->frame.lower_unbounded() || w->frame.upper != 0 ||
        !w->partition_by.empty())
      return nullptr;
    if (spec) {
      bool same = spec->order_by.size() == w->order_by.size();
      for (size_t i = 0; same && i < w->order_by.size(); ++i)
        same = semantic_key(spec->order_by[i]) == semantic_key(w->order_by[i]);
      if (!same) return nullptr;
    }
    spec = w;
  }
  const PlanPtr& input = window->children[0];
  auto rows = max_rows(input);
  if (rows && *rows <= limit) return nullptr;
  auto sort = std::make_shared<PlanNode>();
  sort->kind = PlanKind::kSort;
  sort->is_global = true;
  sort->exprs = spec->order_by;
  sort->children = {input};
  sort->output = input->output;
  sort->resolved = true;
  auto top = std::make_shared<PlanNode>();
  top->kind = PlanKind::kLimit;
  top->limit = limit;
  top->children = {sort};
  top->output = input->output;
  top->resolved = true;
  return replace_children(window, {top});
}

class LimitPushDown final : public Rule {
 public:
  const char* name() const override { return "LimitPushDown"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [](const PlanPtr& node) -> PlanPtr {
      if (node->kind == PlanKind::kJoin && !node->condition && !node->lateral &&
          (node->join_type == JoinType::kLeftSemi || node->join_type == JoinType::kLeftAnti)) {
        // Whether the right side has any row is all that matters.
        return replace_children(node, {node->children[0], maybe_push(1, node->children[1])});
      }
      if (node->kind != PlanKind::kLimit || node->limit < 0) return node;
      const int64_t limit = node->limit;
      const PlanPtr& child = node->children[0];
      switch (child->kind) {
        case PlanKind::kSetOp:
        case PlanKind::kSubqueryAlias: {
          PlanPtr pushed = push_into_union(limit, child);
          return pushed ? replace_children(node, {pushed}) : node;
        }
        case PlanKind::kJoin:
          if (child->lateral) return node;
          return replace_children(node, {push_through_join(limit, child)});
        case PlanKind::kProject: {
          const PlanPtr& below = child->children[0];
          if (below->kind == PlanKind::kJoin && !below->lateral)
            return replace_children(node, {replace_children(child, {push_through_join(limit, below)})});
          // A top-N sort below the projection: the physical plan finds a limit right above
          // a sort.
          if (below->kind == PlanKind::kSort && below->is_global && transparent_project(*child))
            return replace_children(node, {replace_children(child, {maybe_push(limit, below)})});
          if (below->kind == PlanKind::kWindow && transparent_project(*child))
            if (PlanPtr pushed = push_through_window(limit, below))
              return replace_children(node, {replace_children(child, {pushed})});
          PlanPtr pushed = push_into_union(limit, child);
          return pushed ? replace_children(node, {pushed}) : node;
        }
        case PlanKind::kWindow: {
          PlanPtr pushed = push_through_window(limit, child);
          return pushed ? replace_children(node, {pushed}) : node;
        }
        case PlanKind::kOffset: {
          const PlanPtr& below = child->children[0];
          // The physical plan already runs a limit over an offset over a sort as one sort.
          if (below->kind == PlanKind::kSort || child->limit > std::numeric_limits<int64_t>::max() - limit)
            return node;
          return replace_children(node, {replace_children(child, {maybe_push(limit + child->limit, below)})});
        }
        default: return node;
      }
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_limit_push_down() { return std::make_unique<LimitPushDown>(); }

}  // namespace ember::plan
