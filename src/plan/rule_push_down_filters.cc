// PushDownFilters: moves filters towards the scans — combines adjacent filters, pushes a filter
// below a projection (substituting the projection's aliases) when both are deterministic, and
// below sorts, repartitions, aliases and generators (conjuncts on a generator's input columns),
// so that scans and joins see fewer rows. Into joins:
// conjuncts that read one side go below the join where the join type allows it, conjuncts
// that read both sides of an inner (or cross) join become its join condition, and an inner
// join's own single-side conditions move into its inputs — so `FROM a, b WHERE a.k = b.k`
// becomes a hash join instead of a cross product. ReorderJoin, here too, orders chains of inner
// joins so that joins with a condition come before cross joins.

#include <map>
#include <set>

#include "functions/function.h"
#include "plan/cardinality.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

bool deterministic_list(const std::vector<ExprPtr>& es) {
  for (auto& e : es)
    if (!e->deterministic()) return false;
  return true;
}

PlanPtr with_child(const PlanPtr& node, PlanPtr child) {
  auto copy = std::make_shared<PlanNode>(*node);
  copy->children = {std::move(child)};
  return copy;
}

PlanPtr make_filter(ExprPtr condition, PlanPtr child) {
  auto f = std::make_shared<PlanNode>();
  f->kind = PlanKind::kFilter;
  f->condition = std::move(condition);
  f->output = child->output;
  f->resolved = true;
  f->children = {std::move(child)};
  return f;
}

void split_and(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::kCall && e->function && e->function->name == "and" && e->children.size() == 2) {
    split_and(e->children[0], out);
    split_and(e->children[1], out);
  } else {
    out.push_back(e);
  }
}

ExprPtr conjunction(const std::vector<ExprPtr>& parts) {
  ExprPtr acc;
  for (auto& p : parts) {
    if (!acc) {
      acc = p;
      continue;
    }
    auto a = std::make_shared<Expr>();
    a->kind = ExprKind::kCall;
    a->function = functions::Registry::instance().find("and");
    a->type = DataType::boolean();
    a->nullable = acc->nullable || p->nullable;
    a->children = {acc, p};
    acc = a;
  }
  return acc;
}

void referenced_ids(const ExprPtr& e, std::set<int64_t>& out) {
  if (e->kind == ExprKind::kAttribute) out.insert(e->expr_id);
  for (auto& c : e->children) referenced_ids(c, out);
}

bool within(const ExprPtr& e, const PlanPtr& side) {
  std::set<int64_t> refs;
  referenced_ids(e, refs);
  std::set<int64_t> ids;
  for (auto& a : side->output) ids.insert(a->expr_id);
  for (int64_t r : refs)
    if (!ids.count(r)) return false;
  return true;
}

bool is_inner(const PlanPtr& n) {
  return n->kind == PlanKind::kJoin && (n->join_type == JoinType::kInner || n->join_type == JoinType::kCross) &&
         n->using_columns.empty() && (!n->condition || n->condition->deterministic());
}

/// ReorderJoin: a chain of inner joins is rebuilt so that each next input is one joined to
/// those before it by a condition; inputs with no condition to the others come last, as cross
/// joins. So `FROM part, supplier, lineitem WHERE p = l AND s = l` joins lineitem before
/// supplier instead of starting with part x supplier. Among the inputs a condition connects,
/// the one whose join gives the fewest rows by the row estimates (plan/cardinality.h) comes
/// next, the first in the written order on a tie; but only a filtered input takes the place
/// of the written order's next input when that one joins by a key. So a fact table meets its
/// filtered dimensions before a table that multiplies its rows (TPC-DS q72: catalog_sales
/// meets the filtered date, demographics and household tables before inventory), and an
/// unfiltered table joined on a column that is no key of it waits its turn (TPC-H Q5: supplier
/// meets lineitem, not customer on the nation key). With
/// spark.ember.join.reorderByEstimates=false the first connected input in the written order
/// comes next, as in Spark's rule without statistics. The chain starts with its first input;
/// a chain already in the chosen order is left as it is.
class ReorderJoin final : public Rule {
 public:
  const char* name() const override { return "ReorderJoin"; }
  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    return reorder(plan, conf.get_bool("spark.ember.join.reorderByEstimates", true));
  }

 private:
  void flatten(const PlanPtr& n, std::vector<PlanPtr>& items, std::vector<ExprPtr>& conds, bool by_estimates) const {
    if (is_inner(n)) {
      flatten(n->children[0], items, conds, by_estimates);
      flatten(n->children[1], items, conds, by_estimates);
      if (n->condition) split_and(n->condition, conds);
    } else {
      items.push_back(reorder(n, by_estimates));
    }
  }

  PlanPtr reorder(const PlanPtr& n, bool by_estimates) const {
    if (!is_inner(n)) {
      bool changed = false;
      std::vector<PlanPtr> kids;
      for (auto& c : n->children) {
        kids.push_back(reorder(c, by_estimates));
        changed |= kids.back() != c;
      }
      if (!changed) return n;
      auto copy = std::make_shared<PlanNode>(*n);
      copy->children = std::move(kids);
      return copy;
    }
    std::vector<PlanPtr> items;
    std::vector<ExprPtr> conds;
    flatten(n, items, conds, by_estimates);
    std::vector<std::set<int64_t>> refs(conds.size()), ids(items.size());
    for (size_t c = 0; c < conds.size(); ++c) referenced_ids(conds[c], refs[c]);
    for (size_t i = 0; i < items.size(); ++i)
      for (auto& a : items[i]->output) ids[i].insert(a->expr_id);
    auto covered = [&](size_t c, const std::set<int64_t>& have) {
      for (int64_t r : refs[c])
        if (!have.count(r)) return false;
      return true;
    };
    std::vector<RowEstimate> est(items.size());
    if (by_estimates)
      for (size_t i = 0; i < items.size(); ++i) est[i] = estimate_rows_and_base(items[i]);
    // Greedy order: of the inputs a condition connects to those taken so far, the one whose
    // join is estimated smallest (or the first one). An input that only a non-equality
    // relates to the chain and that has more than one row waits for every input a key
    // relates: comparing every pair multiplies the rows, and a key joined after it no longer
    // meets a table it is the key of (TPC-H q7: supplier x nation x nation by the nations'
    // names, then customer by its nation, is a pair of every supplier and customer of the two
    // nations before lineitem is met).
    std::vector<size_t> order{0};
    std::vector<bool> taken(items.size(), false), used(conds.size(), false);
    taken[0] = true;
    std::set<int64_t> have = ids[0];
    RowEstimate joined = est[0];
    while (order.size() < items.size()) {
      size_t next = items.size(), first = items.size();
      bool first_by_key = false;
      double best = 0;
      bool best_multiplies = false;
      for (size_t i = 0; i < items.size(); ++i) {
        if (taken[i]) continue;
        std::set<int64_t> with = have;
        with.insert(ids[i].begin(), ids[i].end());
        bool connects = false, by_key = false;
        double many_to_many = 0;
        for (size_t c = 0; c < conds.size(); ++c) {
          if (used[c] || covered(c, have)) continue;
          bool touches_i = false;
          for (int64_t r : refs[c]) touches_i |= ids[i].count(r) > 0;
          if (!touches_i || !covered(c, with)) continue;
          connects = true;
          if (!hash_key_between(conds[c], have, ids[i])) continue;
          by_key = true;
          if (by_estimates) many_to_many = std::max(many_to_many, many_to_many_rows(conds[c], joined, est[i], have, order, ids, est));
        }
        if (!connects) continue;
        if (!by_estimates) {
          next = i;
          break;
        }
        // Without an equality between the two sides the join compares every pair.
        double rows = by_key ? std::max(inner_join_rows(joined, est[i]), many_to_many) : joined.rows * est[i].rows;
        // The estimates know no distinct counts, so an unfiltered input's join may be a
        // many-to-many one in disguise (TPC-H Q5: supplier meets customer on the nation key):
        // only a filtered input takes the place of the written order's next keyed join.
        const bool first_one = first == items.size();
        if (first_one) first = i, first_by_key = by_key;
        if (!first_one && first_by_key && est[i].rows >= est[i].base) continue;
        bool multiplies = !by_key && est[i].rows > 1;
        if (next == items.size() || multiplies < best_multiplies ||
            (multiplies == best_multiplies && rows < best)) {
          next = i;
          best = rows;
          best_multiplies = multiplies;
        }
      }
      if (by_estimates && next != items.size())
        joined = RowEstimate{inner_join_rows(joined, est[next]), std::max(joined.base, est[next].base)};
      if (next == items.size())
        for (size_t i = 0; i < items.size(); ++i)
          if (!taken[i]) {
            next = i;
            break;
          }
      order.push_back(next);
      taken[next] = true;
      have.insert(ids[next].begin(), ids[next].end());
    }
    bool same = true;
    for (size_t k = 0; k < order.size(); ++k) same &= order[k] == k;
    // Same order: only chains nested inside the inputs may change.
    if (same) return rebuild_same(n, by_estimates);
    // Left-deep joins in the new order, each with the conditions it completes.
    PlanPtr acc = items[order[0]];
    std::set<int64_t> seen = ids[order[0]];
    for (size_t k = 1; k < order.size(); ++k) {
      const PlanPtr& right = items[order[k]];
      seen.insert(ids[order[k]].begin(), ids[order[k]].end());
      std::vector<ExprPtr> here;
      for (size_t c = 0; c < conds.size(); ++c)
        if (!used[c] && covered(c, seen)) here.push_back(conds[c]), used[c] = true;
      auto j = std::make_shared<PlanNode>(*n);
      j->children = {acc, right};
      j->condition = here.empty() ? nullptr : conjunction(here);
      j->join_type = here.empty() ? JoinType::kCross : JoinType::kInner;
      j->output = acc->output;
      j->output.insert(j->output.end(), right->output.begin(), right->output.end());
      acc = j;
    }
    std::vector<ExprPtr> left_over;
    for (size_t c = 0; c < conds.size(); ++c)
      if (!used[c]) left_over.push_back(conds[c]);
    if (!left_over.empty()) acc = make_filter(conjunction(left_over), acc);
    // The chain's columns in their written order.
    auto p = std::make_shared<PlanNode>();
    p->kind = PlanKind::kProject;
    p->exprs = n->output;
    p->output = n->output;
    p->resolved = true;
    p->children = {acc};
    return p;
  }

  /// inner_join_rows assumes the side with the smaller base holds a key of its table (a
  /// dimension met by a fact table). When that side is the inputs joined so far and its key
  /// column comes from one input whose table has fewer rows than the joined inputs now have,
  /// the key repeats there and the join is many-to-many: `customer` meeting `supplier x nation`
  /// on the nation key gives every customer of a nation once for each of its suppliers
  /// (TPC-H Q7). Then about |L| x |R| / (rows of the key's table); 0 otherwise.
  static double many_to_many_rows(const ExprPtr& c, const RowEstimate& joined, const RowEstimate& other,
                                  const std::set<int64_t>& have, const std::vector<size_t>& order,
                                  const std::vector<std::set<int64_t>>& ids, const std::vector<RowEstimate>& est) {
    if (joined.base > other.base) return 0;
    std::set<int64_t> joined_refs;
    for (const ExprPtr& side : c->children) {
      std::set<int64_t> r;
      referenced_ids(side, r);
      bool inside = !r.empty();
      for (int64_t id : r) inside &= have.count(id) > 0;
      if (inside) joined_refs = std::move(r);
    }
    for (size_t k : order) {
      bool all = !joined_refs.empty();
      for (int64_t id : joined_refs) all &= ids[k].count(id) > 0;
      if (!all) continue;
      const double key_rows = est[k].base;
      if (key_rows <= 0 || joined.rows <= 1.5 * key_rows) return 0;
      return joined.rows * other.rows / key_rows;
    }
    return 0;
  }

  /// Whether `c` is an equality of an expression over `left` with one over `right`: a key the
  /// hash join can use.
  static bool hash_key_between(const ExprPtr& c, const std::set<int64_t>& left, const std::set<int64_t>& right) {
    if (c->kind != ExprKind::kCall || !c->function || c->children.size() != 2 ||
        (c->function->name != "==" && c->function->name != "<=>"))
      return false;
    auto inside = [](const ExprPtr& e, const std::set<int64_t>& side) {
      std::set<int64_t> r;
      referenced_ids(e, r);
      if (r.empty()) return false;
      for (int64_t id : r)
        if (!side.count(id)) return false;
      return true;
    };
    const ExprPtr& a = c->children[0];
    const ExprPtr& b = c->children[1];
    return (inside(a, left) && inside(b, right)) || (inside(a, right) && inside(b, left));
  }

  /// The chain in its written order, with any nested chain inside its inputs reordered.
  PlanPtr rebuild_same(const PlanPtr& n, bool by_estimates) const {
    if (!is_inner(n)) return reorder(n, by_estimates);
    PlanPtr l = rebuild_same(n->children[0], by_estimates), r = rebuild_same(n->children[1], by_estimates);
    if (l == n->children[0] && r == n->children[1]) return n;
    auto copy = std::make_shared<PlanNode>(*n);
    copy->children = {l, r};
    return copy;
  }
};

class PushDownFilters final : public Rule {
 public:
  const char* name() const override { return "PushDownFilters"; }
  PlanPtr apply(const PlanPtr& plan, const Config&) const override {
    return transform_up(plan, [&](const PlanPtr& node) { return push(node); });
  }

 private:
  /// A join with `extra` conjuncts (from a filter above, or its own condition when
  /// `extra_are_own`) placed: below on one side, into the condition, or left over (returned in
  /// `rest`, to stay above).
  PlanPtr place_into_join(const PlanPtr& join, const std::vector<ExprPtr>& extra, std::vector<ExprPtr>& rest) const {
    const JoinType jt = join->join_type;
    const bool inner = jt == JoinType::kInner || jt == JoinType::kCross;
    const bool to_left = inner || jt == JoinType::kLeftOuter || jt == JoinType::kLeftSemi || jt == JoinType::kLeftAnti ||
                         jt == JoinType::kExistence;
    const bool to_right = inner || jt == JoinType::kRightOuter;
    const PlanPtr& left = join->children[0];
    const PlanPtr& right = join->children[1];
    std::vector<ExprPtr> lf, rf, jc;
    for (auto& c : extra) {
      if (!c->deterministic()) rest.push_back(c);
      else if (to_left && within(c, left)) lf.push_back(c);
      else if (to_right && within(c, right)) rf.push_back(c);
      else if (inner) jc.push_back(c);
      else rest.push_back(c);
    }
    if (lf.empty() && rf.empty() && jc.empty()) return join;
    auto copy = std::make_shared<PlanNode>(*join);
    if (!lf.empty()) copy->children[0] = push(make_filter(conjunction(lf), left));
    if (!rf.empty()) copy->children[1] = push(make_filter(conjunction(rf), right));
    if (!jc.empty()) {
      if (join->condition) jc.insert(jc.begin(), join->condition);
      copy->condition = conjunction(jc);
      if (jt == JoinType::kCross) copy->join_type = JoinType::kInner;
    }
    return copy;
  }

  /// An inner join's own conjuncts that read one side only move into that side.
  PlanPtr push_join_condition(const PlanPtr& join) const {
    if (!(join->join_type == JoinType::kInner || join->join_type == JoinType::kCross) || !join->condition) return join;
    std::vector<ExprPtr> parts, keep;
    split_and(join->condition, parts);
    std::vector<ExprPtr> lf, rf;
    for (auto& c : parts) {
      if (!c->deterministic()) keep.push_back(c);
      else if (within(c, join->children[0])) lf.push_back(c);
      else if (within(c, join->children[1])) rf.push_back(c);
      else keep.push_back(c);
    }
    if (lf.empty() && rf.empty()) return join;
    auto copy = std::make_shared<PlanNode>(*join);
    if (!lf.empty()) copy->children[0] = push(make_filter(conjunction(lf), join->children[0]));
    if (!rf.empty()) copy->children[1] = push(make_filter(conjunction(rf), join->children[1]));
    copy->condition = keep.empty() ? nullptr : conjunction(keep);
    return copy;
  }

  PlanPtr push(const PlanPtr& node) const {
    if (node->kind == PlanKind::kJoin) return push_join_condition(node);
    if (node->kind != PlanKind::kFilter || !node->condition->deterministic()) return node;
    const PlanPtr& child = node->children[0];
    switch (child->kind) {
      case PlanKind::kFilter: {
        if (!child->condition->deterministic()) return node;
        auto a = std::make_shared<Expr>();
        a->kind = ExprKind::kCall;
        a->function = functions::Registry::instance().find("and");
        a->type = DataType::boolean();
        a->nullable = child->condition->nullable || node->condition->nullable;
        a->children = {child->condition, node->condition};
        return push(make_filter(a, child->children[0]));
      }
      case PlanKind::kProject: {
        if (!deterministic_list(child->exprs)) return node;
        std::map<int64_t, ExprPtr> aliases;
        for (auto& e : child->exprs)
          if (e->kind == ExprKind::kAlias) aliases[e->expr_id] = e->children[0];
        ExprPtr cond = transform_expr_up(node->condition, [&](const ExprPtr& e) -> ExprPtr {
          if (e->kind != ExprKind::kAttribute) return e;
          auto it = aliases.find(e->expr_id);
          return it == aliases.end() ? e : it->second;
        });
        PlanPtr pushed = push(make_filter(cond, child->children[0]));
        return with_child(child, pushed);
      }
      case PlanKind::kSort:
      case PlanKind::kRepartition:
      case PlanKind::kSubqueryAlias:
      case PlanKind::kHint: {
        // Attributes keep their ids through these nodes.
        return with_child(child, push(make_filter(node->condition, child->children[0])));
      }
      case PlanKind::kGenerate: {
        // Conjuncts on the generator's input columns filter input rows instead of their output.
        std::vector<ExprPtr> parts, below, rest;
        split_and(node->condition, parts);
        for (auto& c : parts) (within(c, child->children[0]) ? below : rest).push_back(c);
        if (below.empty()) return node;
        PlanPtr generate = with_child(child, push(make_filter(conjunction(below), child->children[0])));
        return rest.empty() ? generate : make_filter(conjunction(rest), generate);
      }
      case PlanKind::kJoin: {
        std::vector<ExprPtr> parts, rest;
        split_and(node->condition, parts);
        PlanPtr join = place_into_join(child, parts, rest);
        if (join == child) return node;
        join = push_join_condition(join);
        return rest.empty() ? join : make_filter(conjunction(rest), join);
      }
      default: return node;
    }
  }
};

}  // namespace

std::unique_ptr<Rule> make_push_down_filters() { return std::make_unique<PushDownFilters>(); }
std::unique_ptr<Rule> make_reorder_join() { return std::make_unique<ReorderJoin>(); }

}  // namespace ember::plan
