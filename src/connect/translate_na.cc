// DataFrame.na: fill, drop and replace. Like Spark's planner, these look at the input's schema
// (analyzed now) to choose the columns a value applies to, then become a projection or a filter.

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::ExprPtr;
using plan::PlanKind;

namespace {

/// What kind of columns a value applies to: numeric values to numeric columns, strings to
/// strings, booleans to booleans.
bool value_applies_to(const TypedValue& v, const DataType& column) {
  switch (v.type->id()) {
    case TypeId::kString: return column.id() == TypeId::kString;
    case TypeId::kBoolean: return column.id() == TypeId::kBoolean;
    default: return v.type->is_numeric() && column.is_numeric();
  }
}

ExprPtr column_ref(const std::string& name) { return plan::col({name}); }

/// `c` with nulls (and NaN for floating point columns) replaced by `v` cast to the column type.
ExprPtr filled(const std::string& name, const DataType& type, const TypePtr& column_type, const TypedValue& v) {
  ExprPtr c = column_ref(name);
  if (type.is_floating()) c = plan::call("if", {plan::call("isnan", {c}), plan::lit(Value(), column_type), c});
  return plan::alias(plan::call("coalesce", {c, plan::cast(plan::lit(v.value, v.type), column_type)}), name);
}

/// Raises the analyzer's UNRESOLVED_COLUMN error (with its suggestions) for a named column that
/// `child` lacks.
void require_columns(plan::Session& session, const plan::PlanPtr& child, const std::vector<ExprPtr>& output,
                     const std::vector<std::string>& names) {
  for (const auto& n : names) {
    bool found = false;
    for (const auto& a : output) found |= a->name == n;
    if (found) continue;
    auto probe = new_node(PlanKind::kProject, {child});
    probe->exprs.push_back(column_ref(n));
    session.analyze(probe);
    throw SparkError(ErrorKind::kAnalysis, "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                     "A column, variable, or function parameter with name `" + n + "` cannot be resolved.",
                     {{"objectName", "`" + n + "`"}});
  }
}

bool selected(const std::vector<std::string>& names, const std::string& name) {
  if (names.empty()) return true;
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

}  // namespace

std::vector<ExprPtr> PlanTranslator::input_columns(const plan::PlanPtr& child) {
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.na needs a session");
  return ctx_.session->analyze(child)->output;
}

PlanTranslator::NodePtr PlanTranslator::na_fill(const pb::NAFill& r) {
  plan::PlanPtr child = input(r.input(), "NAFill");
  if (r.values_size() == 0)
    throw_invalid_plan("NA_FILL_VALUES_EMPTY", "values must contains at least 1 item!", {});
  std::vector<std::string> cols(r.cols().begin(), r.cols().end());
  if (r.values_size() > 1 && r.values_size() != r.cols_size())
    throw_invalid_plan("NA_FILL_VALUES_LENGTH_MISMATCH",
                       "When values contains more than 1 items, values and cols should have the same length!", {});
  std::vector<TypedValue> values;
  for (const auto& v : r.values()) values.push_back(literal_from_proto(v));
  // One value for many columns: an integral value fills as a double, as Spark's fill(Double)
  // that PySpark calls for numbers (integral columns then take it through a narrowing cast).
  if (values.size() == 1 && values[0].type->is_integral())
    values[0] = {Value::floating(static_cast<double>(values[0].value.as_int())), DataType::double_()};
  std::vector<ExprPtr> output = input_columns(child);
  require_columns(*ctx_.session, child, output, cols);
  auto node = new_node(PlanKind::kProject, {child});
  for (const auto& a : output) {
    ExprPtr e = column_ref(a->name);
    if (values.size() == 1) {
      if (selected(cols, a->name) && value_applies_to(values[0], *a->type)) e = filled(a->name, *a->type, a->type, values[0]);
    } else {
      // One value per named column, cast to the column's type.
      for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i] == a->name) e = filled(a->name, *a->type, a->type, values[i]);
    }
    node->exprs.push_back(e);
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::na_drop(const pb::NADrop& r) {
  plan::PlanPtr child = input(r.input(), "NADrop");
  std::vector<std::string> cols(r.cols().begin(), r.cols().end());
  std::vector<ExprPtr> output = input_columns(child);
  require_columns(*ctx_.session, child, output, cols);
  // Count the values that are neither null nor NaN among the columns; keep rows with enough.
  ExprPtr count;
  int64_t columns = 0;
  for (const auto& a : output) {
    if (!selected(cols, a->name)) continue;
    ++columns;
    ExprPtr c = column_ref(a->name);
    ExprPtr present = plan::call("isnotnull", {c});
    if (a->type->is_floating()) present = plan::call("and", {present, plan::call("not", {plan::call("isnan", {c})})});
    ExprPtr one = plan::call("if", {present, plan::lit(Value::integer(1), DataType::int_()),
                                    plan::lit(Value::integer(0), DataType::int_())});
    count = count ? plan::call("+", {count, one}) : one;
  }
  int64_t min_non_nulls = r.has_min_non_nulls() ? r.min_non_nulls() : columns;
  auto node = new_node(PlanKind::kFilter, {child});
  node->condition = count ? plan::call(">=", {count, plan::lit(Value::integer(min_non_nulls), DataType::long_())})
                          : plan::lit(Value::boolean(min_non_nulls <= 0), DataType::boolean());
  return node;
}

PlanTranslator::NodePtr PlanTranslator::na_replace(const pb::NAReplace& r) {
  plan::PlanPtr child = input(r.input(), "NAReplace");
  std::vector<std::string> cols(r.cols().begin(), r.cols().end());
  std::vector<std::pair<TypedValue, TypedValue>> pairs;
  for (const auto& p : r.replacements())
    pairs.emplace_back(literal_from_proto(p.old_value()), literal_from_proto(p.new_value()));
  std::vector<ExprPtr> output = input_columns(child);
  require_columns(*ctx_.session, child, output, cols);
  // The keys' kind decides the columns (the first non-null key; all keys share a kind).
  const TypedValue* kind = nullptr;
  for (const auto& p : pairs)
    if (p.first.type->id() != TypeId::kNull) {
      kind = &p.first;
      break;
    }
  auto node = new_node(PlanKind::kProject, {child});
  for (const auto& a : output) {
    ExprPtr c = column_ref(a->name);
    if (pairs.empty() || !kind || !selected(cols, a->name) || !value_applies_to(*kind, *a->type)) {
      node->exprs.push_back(c);
      continue;
    }
    // CASE c WHEN old1 THEN CAST(new1 AS type) ... ELSE c END, named after the column.
    std::vector<ExprPtr> branches;
    for (const auto& [from, to] : pairs) {
      branches.push_back(plan::call("==", {c, plan::lit(from.value, from.type)}));
      branches.push_back(plan::cast(plan::lit(to.value, to.type), a->type));
    }
    branches.push_back(c);
    node->exprs.push_back(plan::alias(plan::call("when", branches), a->name));
  }
  return node;
}

}  // namespace ember::connect
