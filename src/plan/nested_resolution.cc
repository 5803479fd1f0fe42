#include "plan/nested_resolution.h"

namespace ember::plan {

std::vector<ExprPtr> struct_to_named_struct_args(const std::vector<ExprPtr>& written,
                                                 const std::vector<ExprPtr>& resolved) {
  std::vector<ExprPtr> out;
  for (size_t i = 0; i < resolved.size(); ++i) {
    const ExprPtr& w = i < written.size() ? written[i] : resolved[i];
    const ExprPtr& r = resolved[i];
    std::string name = "col" + std::to_string(i + 1);
    if (w->kind == ExprKind::kUnresolvedAttribute && !w->name_parts.empty()) name = w->name_parts.back();
    else if (w->kind == ExprKind::kUnresolvedExtract && w->children[1]->kind == ExprKind::kLiteral &&
             w->children[1]->type->id() == TypeId::kString && !w->children[1]->value.is_null())
      name = w->children[1]->value.as_bytes();
    else if (r->kind == ExprKind::kAlias || r->kind == ExprKind::kAttribute || r->kind == ExprKind::kGetField)
      name = r->name;
    out.push_back(lit(Value::bytes(name), DataType::string()));
    out.push_back(r);
  }
  return out;
}

std::string struct_display(const std::vector<ExprPtr>& resolved) {
  std::string s = "struct(";
  for (size_t i = 0; i < resolved.size(); ++i) {
    s += (i ? ", " : "") + resolved[i]->to_string();
  }
  return s + ")";
}

}  // namespace ember::plan
