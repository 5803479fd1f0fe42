#include "plan/scan_predicates.h"

#include "functions/function.h"

namespace ember::plan {

namespace {

using Op = io::ScanPredicate::Op;

int column_of(const ExprPtr& e, const std::vector<ExprPtr>& out) {
  if (e->kind != ExprKind::kAttribute) return -1;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i]->expr_id == e->expr_id) return static_cast<int>(i);
  return -1;
}

void collect(const ExprPtr& e, const std::vector<ExprPtr>& out, std::vector<io::ScanPredicate>& preds) {
  if (e->kind != ExprKind::kCall || !e->function) return;
  const std::string& fn = e->function->name;
  if (fn == "and" && e->children.size() == 2) {
    collect(e->children[0], out, preds);
    collect(e->children[1], out, preds);
    return;
  }
  if ((fn == "isnull" || fn == "isnotnull") && e->children.size() == 1) {
    const int c = column_of(e->children[0], out);
    if (c >= 0) preds.push_back({c, fn == "isnull" ? Op::kIsNull : Op::kIsNotNull, Value()});
    return;
  }
  static const std::pair<const char*, Op> kOps[] = {
      {"==", Op::kEq}, {"<", Op::kLt}, {"<=", Op::kLe}, {">", Op::kGt}, {">=", Op::kGe}};
  for (const auto& [name, op] : kOps) {
    if (fn != name || e->children.size() != 2) continue;
    const ExprPtr& l = e->children[0];
    const ExprPtr& r = e->children[1];
    int c = column_of(l, out);
    const ExprPtr* literal = &r;
    Op o = op;
    if (c < 0) {
      c = column_of(r, out);
      literal = &l;
      // literal <op> column is column <mirrored op> literal.
      o = op == Op::kLt ? Op::kGt : op == Op::kLe ? Op::kGe : op == Op::kGt ? Op::kLt
        : op == Op::kGe ? Op::kLe : op;
    }
    if (c < 0 || (*literal)->kind != ExprKind::kLiteral || (*literal)->value.is_null()) return;
    const auto& col_type = out[static_cast<size_t>(c)]->type;
    if (!(*literal)->type || !(*literal)->type->equals(*col_type)) return;
    preds.push_back({c, o, (*literal)->value});
    return;
  }
}

}  // namespace

std::vector<io::ScanPredicate> scan_predicates(const ExprPtr& condition,
                                               const std::vector<ExprPtr>& scan_output) {
  std::vector<io::ScanPredicate> preds;
  if (condition) collect(condition, scan_output, preds);
  return preds;
}

}  // namespace ember::plan
