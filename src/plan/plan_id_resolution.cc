#include "plan/plan_id_resolution.h"

#include <algorithm>
#include <set>

#include "common/error.h"

namespace ember::plan {
namespace {

struct Found {
  std::optional<std::pair<ExprPtr, size_t>> match;
  int depth = 0;
  bool plan_found = false;
  std::optional<SparkError> error;
};

bool is_union(const PlanNode& n) { return n.kind == PlanKind::kSetOp && n.set_op == SetOpType::kUnion; }

bool in_output(const ExprPtr& attr, const PlanNode& n) {
  for (auto& a : n.output)
    if (a->expr_id == attr->expr_id) return true;
  return false;
}

Found search(const std::vector<PlanPtr>& nodes, int64_t id, const OutputMatcher& match, const std::string& shown,
             int depth);

Found search_node(const PlanPtr& p, int64_t id, const OutputMatcher& match, const std::string& shown, int depth) {
  Found f;
  if (p->plan_id == id) {
    f.plan_found = true;
    f.depth = depth;
    try {
      f.match = match(p->output);
    } catch (const SparkError& e) {
      // An ambiguous name at the node: the caller reports it or resolves the name again.
      f.error = e;
    }
  } else if (!is_union(*p)) {
    f = search(p->children, id, match, shown, depth + 1);
  }
  // The same DataFrame may sit on both sides of a join (df1 and a frame derived from it); a
  // result that does not reach this node's output belongs to a branch the reference does not
  // mean.
  if (f.match && !in_output(f.match->first, *p)) f.match.reset();
  return f;
}

Found search(const std::vector<PlanPtr>& nodes, int64_t id, const OutputMatcher& match, const std::string& shown,
             int depth) {
  std::vector<Found> hits;
  bool plan_found = false;
  std::optional<SparkError> error;
  for (auto& n : nodes) {
    Found f = search_node(n, id, match, shown, depth);
    plan_found |= f.plan_found;
    if (f.error && !error) error = f.error;
    if (f.match) hits.push_back(std::move(f));
  }
  std::stable_sort(hits.begin(), hits.end(), [](const Found& a, const Found& b) { return a.depth < b.depth; });
  Found out;
  out.plan_found = plan_found;
  if (hits.empty()) {
    out.error = std::move(error);
    return out;
  }
  // Only a match at the operator's own input (depth 0) wins over deeper ones.
  if (hits.size() > 1 && !(hits[0].depth == 0 && hits[1].depth != 0)) throw_ambiguous_column_reference(shown);
  out.match = hits[0].match;
  out.depth = hits[0].depth;
  return out;
}

std::optional<std::vector<ExprPtr>> star_search(const PlanPtr& p, int64_t id, const std::string& shown);

std::optional<std::vector<ExprPtr>> star_search_all(const std::vector<PlanPtr>& nodes, int64_t id,
                                                    const std::string& shown) {
  std::optional<std::vector<ExprPtr>> found;
  for (auto& n : nodes) {
    auto r = star_search(n, id, shown);
    if (r && found) throw_ambiguous_column_reference(shown);
    if (r) found = std::move(r);
  }
  return found;
}

std::optional<std::vector<ExprPtr>> star_search(const PlanPtr& p, int64_t id, const std::string& shown) {
  std::optional<std::vector<ExprPtr>> r;
  if (p->plan_id == id) r = p->output;
  else r = star_search_all(p->children, id, shown);
  if (r)
    for (auto& a : *r)
      if (!in_output(a, *p)) return std::nullopt;
  return r;
}

}  // namespace

PlanIdResult resolve_by_plan_id(const std::vector<PlanPtr>& roots, int64_t plan_id, const OutputMatcher& match,
                                const std::string& shown) {
  Found f = search(roots, plan_id, match, shown, 0);
  PlanIdResult r;
  r.plan_found = f.plan_found;
  r.match = f.match;
  if (!r.match) r.error = std::move(f.error);
  return r;
}

std::vector<ExprPtr> expand_star_by_plan_id(const std::vector<PlanPtr>& roots, int64_t plan_id,
                                            const std::string& shown) {
  auto r = star_search_all(roots, plan_id, shown);
  if (!r) throw_cannot_resolve_dataframe_column(shown);
  return *r;
}

void throw_cannot_resolve_dataframe_column(const std::string& shown) {
  throw SparkError(ErrorKind::kAnalysis, "CANNOT_RESOLVE_DATAFRAME_COLUMN",
                   "Cannot resolve dataframe column \"" + shown +
                       "\". It's probably because of illegal references like `df1.select(df2.col(\"a\"))`.",
                   {{"name", "\"" + shown + "\""}}, "42704");
}

void throw_ambiguous_column_reference(const std::string& shown) {
  throw SparkError(ErrorKind::kAnalysis, "AMBIGUOUS_COLUMN_REFERENCE",
                   "Column \"" + shown +
                       "\" is ambiguous. It's because you joined several DataFrame together, and some of these "
                       "DataFrames are the same.\nThis column points to one of the DataFrames but Spark is unable to "
                       "figure out which one.\nPlease alias the DataFrames with different names via `DataFrame.alias` "
                       "before joining them,\nand specify the column using qualified name, e.g. "
                       "`df.alias(\"a\").join(df.alias(\"b\"), col(\"a.id\") > col(\"b.id\"))`.",
                   {{"name", "\"" + shown + "\""}}, "42702");
}

}  // namespace ember::plan
