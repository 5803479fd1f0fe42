// Transpose: DataFrame.transpose(indexColumn).

#include "connect/translate_transpose.h"

#include "common/error.h"
#include "connect/translate_types.h"
#include "functions/function.h"
#include "plan/expression.h"
#include "plan/session.h"

namespace ember::connect {

namespace {

using plan::PlanKind;
using plan::PlanNode;
using plan::PlanPtr;

/// Spark's tightest common type of two value columns (ANSI): equal types, NULL beside any,
/// numbers other than decimals by precedence (an integral type and FLOAT give DOUBLE), an integral type inside a decimal that holds all
/// its digits, datetimes, and nested types that differ only in nullability; nothing else.
TypePtr tightest_common_type(const TypePtr& a, const TypePtr& b) {
  if (a->equals(*b)) return a;
  if (a->id() == TypeId::kNull) return b;
  if (b->id() == TypeId::kNull) return a;
  auto digits = [](const DataType& t) {
    switch (t.id()) {
      case TypeId::kByte: return 3;
      case TypeId::kShort: return 5;
      case TypeId::kInt: return 10;
      default: return 20;
    }
  };
  const bool a_dec = a->id() == TypeId::kDecimal, b_dec = b->id() == TypeId::kDecimal;
  if (a->is_integral() && b_dec) return b->precision() - b->scale() >= digits(*a) ? b : nullptr;
  if (b->is_integral() && a_dec) return a->precision() - a->scale() >= digits(*b) ? a : nullptr;
  if (a_dec || b_dec) return nullptr;
  // ANSI keeps every integral value exact: beside a FLOAT it becomes a DOUBLE.
  if ((a->is_integral() && b->id() == TypeId::kFloat) || (b->is_integral() && a->id() == TypeId::kFloat))
    return DataType::double_();
  if ((a->is_numeric() && b->is_numeric()) || (a->is_datetime() && b->is_datetime()) ||
      (a->is_nested() && a->same_type(*b)))
    return functions::wider_type(a, b, false);
  return nullptr;
}

PlanPtr node(PlanKind kind, std::vector<PlanPtr> children) {
  auto n = std::make_shared<PlanNode>();
  n->kind = kind;
  n->children = std::move(children);
  return n;
}

}  // namespace

PlanPtr transpose_relation(plan::Session& session, const PlanPtr& input, const plan::ExprPtr& index,
                           std::shared_ptr<std::atomic<bool>> cancelled) {
  PlanPtr analyzed = session.analyze(input);
  const size_t width = analyzed->output.size();
  auto result = std::make_shared<PlanNode>();
  result->kind = PlanKind::kLocalRelation;
  if (width == 0) return result;

  // The index column's position among the input's columns.
  size_t k = 0;
  if (index) {
    auto project = node(PlanKind::kProject, {input});
    const_cast<PlanNode*>(project.get())->exprs = {index};
    PlanPtr resolved = session.analyze(project);
    plan::ExprPtr e = resolved->exprs[0];
    while (e->kind == plan::ExprKind::kAlias) e = e->children[0];
    const auto& columns = resolved->children[0]->output;
    k = width;
    for (size_t i = 0; i < columns.size() && e->kind == plan::ExprKind::kAttribute; ++i)
      if (columns[i]->expr_id == e->expr_id) k = i;
    if (k == width || columns.size() != width)
      throw SparkError(ErrorKind::kAnalysis, "TRANSPOSE_INVALID_INDEX_COLUMN",
                       "Invalid index column for TRANSPOSE because: Index column must be a column "
                       "of the DataFrame, but found: " + e->to_string(),
                       {{"reason", "Index column must be a column of the DataFrame, but found: " +
                                       e->to_string()}},
                       "42804");
  }
  const TypePtr index_type = analyzed->output[k]->type;
  if (index_type->is_nested() || index_type->id() == TypeId::kNull ||
      index_type->id() == TypeId::kVariant) {
    std::string reason = "Index column must be of atomic type, but found: " + scala_type_string(*index_type);
    throw SparkError(ErrorKind::kAnalysis, "TRANSPOSE_INVALID_INDEX_COLUMN",
                     "Invalid index column for TRANSPOSE because: " + reason, {{"reason", reason}},
                     "42804");
  }

  // The common type of the other columns (STRING when there are none).
  TypePtr common;
  for (size_t i = 0; i < width; ++i) {
    if (i == k) continue;
    const TypePtr& t = analyzed->output[i]->type;
    if (!common) {
      common = t;
      continue;
    }
    TypePtr wider = tightest_common_type(common, t);
    if (!wider) {
      std::string a = "\"" + common->sql() + "\"", b = "\"" + t->sql() + "\"";
      throw SparkError(ErrorKind::kAnalysis, "TRANSPOSE_NO_LEAST_COMMON_TYPE",
                       "Transpose requires non-index columns to share a least common type, but " +
                           a + " and " + b + " do not.",
                       {{"dt1", a}, {"dt2", b}}, "42K09");
    }
    common = wider;
  }
  if (!common) common = DataType::string();

  // The rows with an index, sorted by it: the index as text, then every other column.
  std::vector<std::string> positional;
  for (size_t i = 0; i < width; ++i) positional.push_back("c" + std::to_string(i));
  auto renamed = node(PlanKind::kToDF, {input});
  const_cast<PlanNode*>(renamed.get())->names = positional;
  auto index_col = [&] { return plan::col({positional[k]}); };
  auto filtered = node(PlanKind::kFilter, {renamed});
  const_cast<PlanNode*>(filtered.get())->condition = plan::call("isnotnull", {index_col()});
  auto sorted = node(PlanKind::kSort, {filtered});
  const_cast<PlanNode*>(sorted.get())->exprs = {plan::sort_order(index_col(), true, true)};
  auto values = node(PlanKind::kProject, {sorted});
  auto* v = const_cast<PlanNode*>(values.get());
  v->exprs.push_back(plan::alias(plan::cast(index_col(), DataType::string()), "name"));
  for (size_t i = 0; i < width; ++i)
    if (i != k) v->exprs.push_back(plan::cast(plan::col({positional[i]}), common));
  const int64_t max_values = session.config().get_int("spark.sql.transposeMaxValues", 500);
  auto limited = node(PlanKind::kLimit, {values});
  const_cast<PlanNode*>(limited.get())->limit = max_values + 1;
  plan::ExecuteOptions options;
  options.cancelled = std::move(cancelled);
  plan::QueryResult rows = session.execute(limited, options);
  if (rows.num_rows() > max_values) {
    throw SparkError(ErrorKind::kAnalysis, "TRANSPOSE_EXCEED_ROW_LIMIT",
                     "Number of rows exceeds the allowed limit of " + std::to_string(max_values) +
                         " for TRANSPOSE. If this was intended, set spark.sql.transposeMaxValues "
                         "to at least the current row count.",
                     {{"maxValues", std::to_string(max_values)}, {"config", "spark.sql.transposeMaxValues"}},
                     "54006");
  }

  // Row r of the result is input column r (other than the index); column j + 1 is input row j.
  result->schema.push_back({"key", DataType::string(), false, "{}"});
  std::vector<std::pair<const Batch*, int64_t>> at;  // input row j: its batch and row
  for (const Batch& b : rows.batches)
    for (int64_t r = 0; r < b.num_rows; ++r) {
      at.emplace_back(&b, r);
      result->schema.push_back({b.columns[0]->value_at(r).as_bytes(), common, true, "{}"});
    }
  ColumnBuilder keys(DataType::string());
  std::vector<std::unique_ptr<ColumnBuilder>> cols;
  for (size_t j = 0; j < at.size(); ++j) cols.push_back(std::make_unique<ColumnBuilder>(common));
  int64_t n = 0;
  for (size_t i = 0, c = 1; i < width; ++i) {
    if (i == k) continue;
    keys.append_bytes(analyzed->output[i]->name);
    for (size_t j = 0; j < at.size(); ++j) cols[j]->append_from(*at[j].first->columns[c], at[j].second);
    ++c;
    ++n;
  }
  Batch out;
  out.num_rows = n;
  out.columns.push_back(keys.finish());
  for (auto& b : cols) out.columns.push_back(b->finish());
  result->batches.push_back(std::move(out));
  return result;
}

}  // namespace ember::connect
