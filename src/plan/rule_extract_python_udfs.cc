// ExtractPythonUDFs: Python calls run only in the PythonEval operators that physical planning
// puts under projections and filters (plan/python_udf_extraction.h). A call anywhere else moves
// into a projection below the operator that reads it, one column per call, and the operator
// reads that column instead:
//  - aggregates: calls in the grouping expressions and in the arguments (and FILTER clauses) of
//    aggregate functions; an output expression that repeats a grouping expression reads the
//    same column. Calls over the aggregate's results (`SELECT f(k) ... GROUP BY k`) stay: the
//    final projection evaluates them;
//  - sorts: calls in the sort keys;
//  - windows: calls in the partition and order keys and in the window functions' arguments;
//  - generators: calls in the generator's arguments;
//  - joins: a call whose arguments read one side is evaluated on that side; a call that reads
//    both sides turns the conjuncts holding it into a filter above the join when the join is
//    inner (or cross), and is Spark's UNSUPPORTED_FEATURE.PYTHON_UDF_IN_ON_CLAUSE otherwise.
// A projection above the rewritten operator drops the added columns again. The rule runs once,
// after the others (so that no rule moves a call back), and cannot be excluded.

#include <map>
#include <set>

#include "common/error.h"
#include "plan/analyzer.h"
#include "plan/optimizer.h"
#include "plan/subquery.h"

namespace ember::plan {
namespace {

bool scalar_python_call(const ExprPtr& e) { return e->kind == ExprKind::kPythonUdf && !is_python_aggregate(*e); }

bool has_scalar_python_call(const ExprPtr& e) {
  if (scalar_python_call(e)) return true;
  if (e->kind == ExprKind::kLambda) return false;  // a call over lambda variables cannot move
  for (auto& c : e->children)
    if (has_scalar_python_call(c)) return true;
  if (e->filter && has_scalar_python_call(e->filter)) return true;
  for (auto& p : e->partition_by)
    if (has_scalar_python_call(p)) return true;
  for (auto& o : e->order_by)
    if (has_scalar_python_call(o)) return true;
  return false;
}

std::set<int64_t> output_ids(const PlanPtr& p) {
  std::set<int64_t> ids;
  for (auto& a : p->output) ids.insert(a->expr_id);
  return ids;
}

/// The calls moved below one operator: each becomes a column of a projection over `child`.
/// Equal deterministic calls share one column.
class Extraction {
 public:
  explicit Extraction(PlanPtr child) : child_(std::move(child)) {}

  /// `e` with every Python call outside lambdas replaced by its column.
  ExprPtr pull(const ExprPtr& e) {
    if (scalar_python_call(e)) return column_for(e);
    return rebuild(e, [this](const ExprPtr& c) { return pull(c); });
  }

  /// `e` with the calls already moved replaced by their columns; other calls stay.
  ExprPtr replace_moved(const ExprPtr& e) {
    if (scalar_python_call(e)) {
      auto it = columns_.find(key(e));
      if (it != columns_.end()) return it->second;
    }
    return rebuild(e, [this](const ExprPtr& c) { return replace_moved(c); });
  }

  bool empty() const { return aliases_.empty(); }

  /// The projection: the child's columns, then one per moved call.
  PlanPtr projection() const {
    auto p = std::make_shared<PlanNode>();
    p->kind = PlanKind::kProject;
    p->children = {child_};
    p->exprs = child_->output;
    p->exprs.insert(p->exprs.end(), aliases_.begin(), aliases_.end());
    p->output = child_->output;
    for (auto& a : aliases_) p->output.push_back(to_attribute(a));
    p->resolved = true;
    return p;
  }

 private:
  static std::string key(const ExprPtr& e) {
    // A nondeterministic call is equal only to itself.
    std::string k = semantic_key(e);
    if (!e->deterministic()) k += "@" + std::to_string(reinterpret_cast<uintptr_t>(e.get()));
    return k;
  }

  ExprPtr column_for(const ExprPtr& call) {
    std::string k = key(call);
    auto it = columns_.find(k);
    if (it != columns_.end()) return it->second;
    ExprPtr a = alias(call, "pythonUDF" + std::to_string(aliases_.size()), new_expr_id());
    aliases_.push_back(a);
    ExprPtr attr = to_attribute(a);
    columns_[k] = attr;
    return attr;
  }

  template <typename F>
  static ExprPtr rebuild(const ExprPtr& e, F&& f) {
    if (e->kind == ExprKind::kLambda) return e;
    bool changed = false;
    auto map_all = [&](const std::vector<ExprPtr>& in) {
      std::vector<ExprPtr> out;
      for (auto& c : in) {
        out.push_back(f(c));
        changed |= out.back() != c;
      }
      return out;
    };
    std::vector<ExprPtr> kids = map_all(e->children);
    std::vector<ExprPtr> partition = map_all(e->partition_by);
    std::vector<ExprPtr> order = map_all(e->order_by);
    ExprPtr filter = e->filter ? f(e->filter) : nullptr;
    changed |= filter != e->filter;
    if (!changed) return e;
    auto n = std::make_shared<Expr>(*e);
    // Names rendered from the tree keep the call's text, not the column's.
    if (n->display.empty() && e->kind != ExprKind::kAlias && e->kind != ExprKind::kAttribute) n->display = e->to_string();
    n->children = std::move(kids);
    n->partition_by = std::move(partition);
    n->order_by = std::move(order);
    n->filter = filter;
    return n;
  }

  PlanPtr child_;
  std::vector<ExprPtr> aliases_;
  std::map<std::string, ExprPtr> columns_;
};

/// Aggregate arguments and grouping expressions: calls move; elsewhere in the outputs, only
/// the calls that a grouping expression already moved are replaced.
ExprPtr rewrite_aggregate_output(const ExprPtr& e, Extraction& ex) {
  if (e->kind == ExprKind::kAggregate) return ex.pull(e);
  if (is_python_aggregate(*e)) return e;  // its arguments are planned with it
  if (e->kind == ExprKind::kPythonUdf) {
    ExprPtr moved = ex.replace_moved(e);
    if (moved != e) return moved;
  }
  if (e->children.empty() || e->kind == ExprKind::kLambda) return e;
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(rewrite_aggregate_output(c, ex));
    changed |= kids.back() != c;
  }
  if (!changed) return e;
  auto n = std::make_shared<Expr>(*e);
  if (n->display.empty() && e->kind != ExprKind::kAlias) n->display = e->to_string();
  n->children = std::move(kids);
  return n;
}

PlanPtr extract_from_aggregate(const PlanPtr& node) {
  bool any = false;
  for (auto& g : node->exprs) any |= has_scalar_python_call(g);
  std::function<bool(const ExprPtr&)> in_aggregate_args = [&](const ExprPtr& e) {
    if (e->kind == ExprKind::kAggregate) return has_scalar_python_call(e);
    for (auto& c : e->children)
      if (in_aggregate_args(c)) return true;
    return false;
  };
  for (auto& a : node->aggregates) any |= in_aggregate_args(a);
  if (!any) return node;
  Extraction ex(node->children[0]);
  auto n = std::make_shared<PlanNode>(*node);
  for (auto& g : n->exprs) g = ex.pull(g);
  for (auto& set : n->grouping_sets)
    for (auto& g : set) g = ex.replace_moved(g);
  for (auto& a : n->aggregates) a = rewrite_aggregate_output(a, ex);
  n->children = {ex.projection()};
  return n;
}

PlanPtr extract_from_join(const PlanPtr& node, const Config& conf) {
  if (!node->condition || !has_scalar_python_call(node->condition)) return node;
  std::set<int64_t> left_ids = output_ids(node->children[0]);
  std::set<int64_t> right_ids = output_ids(node->children[1]);
  std::vector<ExprPtr> conjuncts;
  split_conjuncts(node->condition, conjuncts);
  // A call that reads both sides (or neither) cannot be evaluated below the join.
  std::function<bool(const ExprPtr&)> reads_both = [&](const ExprPtr& e) {
    if (scalar_python_call(e) && !refs_subset(e, left_ids) && !refs_subset(e, right_ids)) return true;
    if (e->kind == ExprKind::kLambda) return false;
    for (auto& c : e->children)
      if (reads_both(c)) return true;
    return false;
  };
  std::vector<ExprPtr> kept, above;
  for (auto& c : conjuncts) (reads_both(c) ? above : kept).push_back(c);
  if (!above.empty() && node->join_type != JoinType::kInner && node->join_type != JoinType::kCross) {
    std::string type = join_type_name(node->join_type);
    throw SparkError(ErrorKind::kAnalysis, "UNSUPPORTED_FEATURE.PYTHON_UDF_IN_ON_CLAUSE",
                     "The feature is not supported: Python UDF in the ON clause of a " + type +
                         " JOIN. In case of an INNER JOIN consider rewriting to a CROSS JOIN with a WHERE clause.",
                     {{"joinType", type}}, "0A000");
  }
  Extraction left(node->children[0]), right(node->children[1]);
  std::function<ExprPtr(const ExprPtr&)> place = [&](const ExprPtr& e) -> ExprPtr {
    if (scalar_python_call(e)) {
      if (refs_subset(e, left_ids)) return left.pull(e);
      if (refs_subset(e, right_ids)) return right.pull(e);
    }
    if (e->children.empty() || e->kind == ExprKind::kLambda) return e;
    std::vector<ExprPtr> kids;
    bool changed = false;
    for (auto& c : e->children) {
      kids.push_back(place(c));
      changed |= kids.back() != c;
    }
    if (!changed) return e;
    auto n = std::make_shared<Expr>(*e);
    if (n->display.empty()) n->display = e->to_string();
    n->children = std::move(kids);
    return n;
  };
  std::vector<ExprPtr> placed;
  for (auto& c : kept) placed.push_back(place(c));
  ExprPtr condition = conjoin(placed, conf);
  auto j = std::make_shared<PlanNode>(*node);
  j->condition = condition;
  if (!left.empty()) j->children[0] = left.projection();
  if (!right.empty()) j->children[1] = right.projection();
  PlanPtr out = j;
  if (!above.empty()) {
    // Inner: the conjuncts that read both sides filter the joined rows (the filter's own
    // extraction evaluates their calls above the join).
    out = filter_node(out, conjoin(above, conf));
  }
  if (left.empty() && right.empty()) return out;
  return project_to(out, node->output);
}

PlanPtr extract_from_sort(const PlanPtr& node) {
  bool any = false;
  for (auto& o : node->exprs) any |= has_scalar_python_call(o);
  if (!any) return node;
  Extraction ex(node->children[0]);
  auto n = std::make_shared<PlanNode>(*node);
  for (auto& o : n->exprs) o = ex.pull(o);
  PlanPtr below = ex.projection();
  n->children = {below};
  n->output = below->output;
  return project_to(n, node->output);
}

PlanPtr extract_from_window(const PlanPtr& node) {
  bool any = false;
  for (auto& a : node->exprs) any |= has_scalar_python_call(a);
  if (!any) return node;
  Extraction ex(node->children[0]);
  auto n = std::make_shared<PlanNode>(*node);
  for (auto& a : n->exprs) {
    // alias(window(function, partition_by, order_by)): a Python window function (a pandas
    // aggregate over a window) stays; its arguments move like any others.
    const ExprPtr& w = a->children[0];
    auto nw = std::make_shared<Expr>(*w);
    ExprPtr fn = w->children[0];
    if (is_python_aggregate(*fn)) {
      std::vector<ExprPtr> args;
      for (auto& c : fn->children) args.push_back(ex.pull(c));
      fn = with_children(fn, std::move(args));
    } else {
      fn = ex.pull(fn);
    }
    nw->children = {fn};
    for (auto& p : nw->partition_by) p = ex.pull(p);
    for (auto& o : nw->order_by) o = ex.pull(o);
    a = with_children(a, {nw});
  }
  PlanPtr below = ex.projection();
  n->children = {below};
  n->output = below->output;
  for (size_t i = node->children[0]->output.size(); i < node->output.size(); ++i) n->output.push_back(node->output[i]);
  return project_to(n, node->output);
}

PlanPtr extract_from_generate(const PlanPtr& node) {
  if (node->exprs.empty() || !has_scalar_python_call(node->exprs[0])) return node;
  Extraction ex(node->children[0]);
  auto n = std::make_shared<PlanNode>(*node);
  std::vector<ExprPtr> args;
  for (auto& c : node->exprs[0]->children) args.push_back(ex.pull(c));
  n->exprs[0] = with_children(node->exprs[0], std::move(args));
  PlanPtr below = ex.projection();
  n->children = {below};
  n->output = below->output;
  n->output.insert(n->output.end(), n->generator_output.begin(), n->generator_output.end());
  return project_to(n, node->output);
}

class ExtractPythonUDFs final : public Rule {
 public:
  const char* name() const override { return "ExtractPythonUDFs"; }
  bool excludable() const override { return false; }
  PlanPtr apply(const PlanPtr& plan, const Config& conf) const override {
    return transform_up(plan, [&](const PlanPtr& node) -> PlanPtr {
      switch (node->kind) {
        case PlanKind::kAggregate: return extract_from_aggregate(node);
        case PlanKind::kJoin: return extract_from_join(node, conf);
        case PlanKind::kSort: return extract_from_sort(node);
        case PlanKind::kWindow: return extract_from_window(node);
        case PlanKind::kGenerate: return extract_from_generate(node);
        default: return node;
      }
    });
  }
};

}  // namespace

std::unique_ptr<Rule> make_extract_python_udfs() { return std::make_unique<ExtractPythonUDFs>(); }

}  // namespace ember::plan
