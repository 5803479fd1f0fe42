// Inline tables (VALUES) evaluated into local relations, as Spark's analyzer evaluates them.

#include "plan/inline_table.h"

#include "common/error.h"
#include "functions/function.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

using Row = std::vector<Value>;

bool has_outer_reference(const ExprPtr& e) {
  if (e->kind == ExprKind::kOuterReference) return true;
  for (const ExprPtr& c : e->children)
    if (has_outer_reference(c)) return true;
  return false;
}

/// Spark evaluates an inline table once, at analysis: a value that differs from call to call
/// (rand, uuid) or reads an outer query's column cannot be one of its values.
void check_evaluable(const ExprPtr& value, const SqlOrigin& written) {
  if (value->deterministic() && !has_outer_reference(value)) return;
  const std::string shown = "\"" + value->to_string() + "\"";
  SparkError err(ErrorKind::kAnalysis,
                 "INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE",
                 "Invalid inline table. Cannot evaluate the expression " + shown +
                     " in inline table definition.",
                 {{"expr", shown}}, "42000");
  if (written.known()) err.locate(written);
  throw err;
}

/// Where the table and its values were written (SqlOrigin's of the parser's node), and how
/// many values the rows read so far have.
struct Written {
  const SqlOrigin& table;
  const std::vector<SqlOrigin>& values;
  size_t next = 0;
  SqlOrigin value() {
    const size_t i = next++;
    return i < values.size() && values[i].known() ? values[i] : table;
  }
};

/// Appends the rows of `p`, unions of projections over the one-row relation, when every value
/// folds to a literal; false otherwise. Raises Spark's INVALID_INLINE_TABLE errors for a value
/// that cannot be evaluated once (placed at the value) or fails to (placed at the table).
bool collect_rows(const PlanPtr& p, const Config& conf, Written& written, std::vector<Row>& rows) {
  switch (p->kind) {
    case PlanKind::kRange:
      if (p->range_start != 0 || p->range_end != 1 || p->range_step != 1) return false;
      rows.emplace_back();
      return true;
    case PlanKind::kProject: {
      std::vector<Row> input;
      if (!collect_rows(p->children[0], conf, written, input)) return false;
      // The projections over the one-row relation are the table's rows as written; those above
      // them cast the rows to the columns' common types.
      const bool as_written = p->children[0]->kind == PlanKind::kRange;
      const std::vector<ExprPtr>& attrs = p->children[0]->output;
      for (const Row& in : input) {
        Row out;
        for (const ExprPtr& e : p->exprs) {
          bool unbound = false;
          ExprPtr body = e->kind == ExprKind::kAlias ? e->children[0] : e;
          if (as_written) check_evaluable(body, written.value());
          ExprPtr bound = transform_expr_up(body, [&](const ExprPtr& x) -> ExprPtr {
            if (x->kind != ExprKind::kAttribute) return x;
            for (size_t i = 0; i < attrs.size(); ++i)
              if (attrs[i]->expr_id == x->expr_id) return lit(in[i], x->type);
            unbound = true;
            return x;
          });
          if (unbound) return false;
          ExprPtr v;
          try {
            v = fold_constant(bound, conf, true);
          } catch (const SparkError&) {
            const std::string shown = "\"" + body->to_string() + "\"";
            SparkError err(ErrorKind::kAnalysis,
                           "INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION",
                           "Invalid inline table. Failed to evaluate the SQL expression " + shown +
                               ". Please check your syntax and ensure all required tables and "
                               "columns are available.",
                           {{"sqlExpr", shown}}, "42000");
            if (written.table.known()) err.locate(written.table);
            throw err;
          }
          if (v->kind != ExprKind::kLiteral) return false;
          out.push_back(v->value);
        }
        rows.push_back(std::move(out));
      }
      return true;
    }
    case PlanKind::kSetOp:
      if (p->set_op != SetOpType::kUnion || !p->is_all || p->by_name) return false;
      return collect_rows(p->children[0], conf, written, rows) &&
             collect_rows(p->children[1], conf, written, rows);
    default:
      return false;
  }
}

}  // namespace

bool is_values_union(const PlanNode& p) {
  return p.kind == PlanKind::kSetOp && p.set_op == SetOpType::kUnion && p.is_all && !p.by_name;
}

void check_inline_table_values(const std::vector<PlanPtr>& rows, const PlanNode& table) {
  Written written{table.origin, table.inline_value_origins};
  for (const PlanPtr& row : rows)
    for (const ExprPtr& e : row->exprs)
      check_evaluable(e->kind == ExprKind::kAlias ? e->children[0] : e, written.value());
}

std::vector<TypePtr> inline_table_types(const std::vector<PlanPtr>& rows, const PlanNode& table) {
  std::vector<TypePtr> types;
  for (size_t c = 0; c < rows[0]->output.size(); ++c) {
    TypePtr type = DataType::null();
    for (const PlanPtr& row : rows) {
      if (type) type = functions::wider_type(type, row->output[c]->type, false);
    }
    if (!type) {
      const std::string name = quote_id(rows[0]->output[c]->name);
      SparkError err(ErrorKind::kAnalysis,
                     "INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE",
                     "Invalid inline table. Found incompatible types in the column " + name +
                         " for inline table.",
                     {{"colName", name}}, "42000");
      if (table.origin.known()) err.locate(table.origin);
      throw err;
    }
    types.push_back(std::move(type));
  }
  return types;
}

PlanPtr evaluate_inline_table(const PlanPtr& resolved, const Config& conf) {
  std::vector<Row> rows;
  Written written{resolved->origin, resolved->inline_value_origins};
  if (!collect_rows(resolved, conf, written, rows) || rows.empty()) return resolved;
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
