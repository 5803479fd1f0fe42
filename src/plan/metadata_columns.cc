#include "plan/metadata_columns.h"

#include <map>

#include "common/ascii.h"
#include "io/file_metadata.h"

namespace ember::plan {

namespace {

bool in_list(const std::vector<ExprPtr>& list, int64_t expr_id) {
  for (const auto& a : list)
    if (a->expr_id == expr_id) return true;
  return false;
}

/// Operators whose output holds their (first) input's columns, rows passed on or dropped: the
/// metadata columns of their input are theirs too. Window and Generate add columns after them.
bool passes_input_columns(const PlanNode& n) {
  switch (n.kind) {
    case PlanKind::kFilter:
    case PlanKind::kSort:
    case PlanKind::kLimit:
    case PlanKind::kOffset:
    case PlanKind::kTail:
    case PlanKind::kSample:
    case PlanKind::kRepartition:
    case PlanKind::kHint:
    case PlanKind::kSubqueryAlias:
    case PlanKind::kWindow:
    case PlanKind::kGenerate:
      return n.children.size() == 1;
    default:
      return false;
  }
}

/// Whether `n` exposes its input's metadata columns: an operator passing its input's columns
/// on, other than a temporary view's alias, or a projection.
bool passes_metadata(const PlanNode& n) {
  if (n.children.size() != 1) return false;
  if (n.kind == PlanKind::kSubqueryAlias && !n.table_name.empty()) return false;
  return passes_input_columns(n) || n.kind == PlanKind::kProject;
}

/// `a` as node `n` outputs it: qualified by the alias of a SubqueryAlias.
ExprPtr as_output_of(const PlanNode& n, const ExprPtr& a) {
  if (n.kind != PlanKind::kSubqueryAlias) return a;
  auto q = std::make_shared<Expr>(*a);
  q->qualifier = {n.alias};
  return q;
}

/// The attribute of `list` with `a`'s id, or `a`.
ExprPtr form_in(const std::vector<ExprPtr>& list, const ExprPtr& a) {
  for (const auto& x : list)
    if (x->expr_id == a->expr_id) return x;
  return a;
}

/// `n`'s output with `attrs` (as its input outputs them) appended, for an operator that passes
/// its input's columns on.
std::vector<ExprPtr> widened_output(const PlanNode& n, const PlanPtr& input,
                                    const std::vector<ExprPtr>& attrs) {
  std::vector<ExprPtr> out = n.output;
  for (const auto& a : attrs)
    if (!in_list(out, a->expr_id)) out.push_back(as_output_of(n, form_in(input->output, a)));
  return out;
}

/// Rebuilds `n` with the nodes of `needed` widened; `added` receives the metadata attributes
/// its output gained. Null when a node of `needed` cannot give its attributes.
PlanPtr attach(const PlanPtr& n, const std::map<const PlanNode*, std::vector<ExprPtr>>& needed,
               std::vector<ExprPtr>& added) {
  if (auto it = needed.find(n.get()); it != needed.end()) {
    PlanPtr widened = with_metadata_output(n, it->second);
    if (!widened) return nullptr;
    for (const auto& a : it->second)
      if (!in_list(n->output, a->expr_id) && !in_list(added, a->expr_id)) added.push_back(a);
    return widened;
  }
  std::vector<PlanPtr> children;
  std::vector<ExprPtr> from_first;
  bool changed = false;
  for (size_t i = 0; i < n->children.size(); ++i) {
    std::vector<ExprPtr> a;
    PlanPtr c = attach(n->children[i], needed, a);
    if (!c) return nullptr;
    changed |= c != n->children[i];
    if (i == 0) from_first = a;
    children.push_back(std::move(c));
  }
  if (!changed) return n;
  auto m = std::make_shared<PlanNode>(*n);
  m->children = std::move(children);
  if (passes_input_columns(*n) && !from_first.empty()) {
    m->output = widened_output(*n, m->children[0], from_first);
    added = from_first;
  }
  return m;
}

}  // namespace

std::vector<ExprPtr> reachable_metadata(const PlanPtr& p) {
  std::vector<ExprPtr> out;
  if (p->kind == PlanKind::kRead) {
    for (const auto& a : p->exprs) out.push_back(form_in(p->output, a));
    return out;
  }
  if (!passes_metadata(*p)) return out;
  for (const auto& a : reachable_metadata(p->children[0]))
    out.push_back(as_output_of(*p, form_in(p->output, a)));
  return out;
}

ExprPtr file_metadata_attribute(const std::string& format, const std::vector<ExprPtr>& columns) {
  if (!io::has_file_metadata(format)) return nullptr;
  std::string name = io::kFileMetadataColumn;
  for (bool taken = true; taken;) {
    taken = false;
    for (const auto& c : columns) taken |= ascii_lower(c->name) == ascii_lower(name);
    if (taken) name = "_" + name;
  }
  return attribute(name, io::file_metadata_type(format), false, new_expr_id());
}

std::vector<ExprPtr> metadata_output(const PlanPtr& p) {
  std::vector<ExprPtr> out;
  for (const auto& a : reachable_metadata(p))
    if (!in_list(p->output, a->expr_id)) out.push_back(a);
  return out;
}

PlanPtr with_metadata_output(const PlanPtr& p, const std::vector<ExprPtr>& attrs) {
  std::vector<ExprPtr> absent;
  for (const auto& a : attrs)
    if (!in_list(p->output, a->expr_id) && !in_list(absent, a->expr_id)) absent.push_back(a);
  if (absent.empty()) return p;
  auto n = std::make_shared<PlanNode>(*p);
  if (p->kind == PlanKind::kRead) {
    for (const auto& a : absent) {
      if (!in_list(p->exprs, a->expr_id)) return nullptr;
      n->output.push_back(form_in(p->exprs, a));
    }
    return n;
  }
  if (!passes_metadata(*p)) return nullptr;
  PlanPtr child = with_metadata_output(p->children[0], absent);
  if (!child) return nullptr;
  n->children = {child};
  if (p->kind == PlanKind::kProject) {
    for (const auto& a : absent) {
      ExprPtr c = form_in(child->output, a);
      n->exprs.push_back(c);
      n->output.push_back(c);
    }
    return n;
  }
  n->output = widened_output(*p, child, absent);
  return n;
}

PlanPtr with_needed_metadata(const PlanPtr& resolved,
                             const std::vector<std::pair<const PlanNode*, ExprPtr>>& needed) {
  std::map<const PlanNode*, std::vector<ExprPtr>> by_node;
  for (const auto& [node, attr] : needed) {
    auto& list = by_node[node];
    if (!in_list(list, attr->expr_id)) list.push_back(attr);
  }
  std::vector<ExprPtr> added;
  PlanPtr widened = attach(resolved, by_node, added);
  if (!widened) return nullptr;
  if (widened == resolved || widened->output.size() == resolved->output.size()) return widened;
  // The operator's own output is what it was: the metadata columns stay hidden above it.
  auto top = std::make_shared<PlanNode>();
  top->kind = PlanKind::kProject;
  top->children = {widened};
  top->exprs = resolved->output;
  top->output = resolved->output;
  top->plan_id = resolved->plan_id;
  top->resolved = true;
  return top;
}

ExprPtr metadata_column_reference(std::vector<std::string> name_parts, int64_t plan_id) {
  auto e = std::make_shared<Expr>(*col(std::move(name_parts), plan_id));
  // An unresolved attribute has no use for the generators' `outer` flag; it marks the reference.
  e->outer = true;
  return e;
}

bool is_metadata_column_reference(const Expr& e) {
  return e.kind == ExprKind::kUnresolvedAttribute && e.outer;
}

}  // namespace ember::plan
