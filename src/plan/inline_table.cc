// Inline tables (VALUES) evaluated into local relations, as Spark's analyzer evaluates them.

#include "plan/inline_table.h"

#include "plan/optimizer.h"

namespace ember::plan {
namespace {

using Row = std::vector<Value>;

/// Appends the rows of `p`, unions of projections over the one-row relation, when every value
/// folds to a literal; false otherwise.
bool collect_rows(const PlanPtr& p, const Config& conf, std::vector<Row>& rows) {
  switch (p->kind) {
    case PlanKind::kRange:
      if (p->range_start != 0 || p->range_end != 1 || p->range_step != 1) return false;
      rows.emplace_back();
      return true;
    case PlanKind::kProject: {
      std::vector<Row> input;
      if (!collect_rows(p->children[0], conf, input)) return false;
      const std::vector<ExprPtr>& attrs = p->children[0]->output;
      for (const Row& in : input) {
        Row out;
        for (const ExprPtr& e : p->exprs) {
          bool unbound = false;
          ExprPtr body = e->kind == ExprKind::kAlias ? e->children[0] : e;
          ExprPtr bound = transform_expr_up(body, [&](const ExprPtr& x) -> ExprPtr {
            if (x->kind != ExprKind::kAttribute) return x;
            for (size_t i = 0; i < attrs.size(); ++i)
              if (attrs[i]->expr_id == x->expr_id) return lit(in[i], x->type);
            unbound = true;  // an outer reference
            return x;
          });
          if (unbound) return false;
          ExprPtr v = fold_constant(bound, conf);
          if (v->kind != ExprKind::kLiteral) return false;
          out.push_back(v->value);
        }
        rows.push_back(std::move(out));
      }
      return true;
    }
    case PlanKind::kSetOp:
      if (p->set_op != SetOpType::kUnion || !p->is_all || p->by_name) return false;
      return collect_rows(p->children[0], conf, rows) && collect_rows(p->children[1], conf, rows);
    default:
      return false;
  }
}

}  // namespace

PlanPtr evaluate_inline_table(const PlanPtr& resolved, const Config& conf) {
  std::vector<Row> rows;
  if (!collect_rows(resolved, conf, rows) || rows.empty()) return resolved;
  auto n = std::make_shared<PlanNode>();
  n->kind = PlanKind::kLocalRelation;
  n->plan_id = resolved->plan_id;
  n->origin = resolved->origin;
  n->output = resolved->output;
  n->resolved = true;
  for (const ExprPtr& a : n->output) n->schema.push_back({a->name, a->type, a->nullable, "{}"});
  std::vector<ColumnPtr> columns;
  for (size_t c = 0; c < n->output.size(); ++c) {
    ColumnBuilder b(n->output[c]->type, static_cast<int64_t>(rows.size()));
    for (const Row& row : rows) b.append_value(row[c]);
    columns.push_back(b.finish());
  }
  n->batches.emplace_back(std::move(columns), static_cast<int64_t>(rows.size()));
  return n;
}

}  // namespace ember::plan
