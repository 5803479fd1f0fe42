// PIVOT and UNPIVOT, rewritten into the operators Ember already runs.
//
// Pivot. Spark describes a pivot logically as one aggregate whose every output is
// `agg(if(pivot <=> value, x, null))`: each input row then feeds every (value, aggregate)
// pair, most of them with a null, so the work grows with the number of values. Ember plans it
// in two phases instead whenever Spark's semantics allow: first an ordinary hash aggregate
// over (grouping columns, pivot columns), which does the real work once per row; then a second
// aggregate over the grouping columns alone that spreads each (group, value) row into its
// column with `first(if(pivot <=> value, result, null), true)` — a pass over one row per
// (group, value) pair, not per input row. Spark takes the same two-phase path (PivotFirst)
// exactly when every aggregate's result type is numeric or boolean, and a (group, value) pair
// without rows then shows null; for other result types the aggregate over no rows has its own
// answer (0 for count, [] for collect_list), so those pivots use the single aggregate with `if`
// arguments, as Spark does, to give the same results.
//
// Unpivot. Each input row becomes one row per value column set, in order: a `stack` generator
// over the ids, the set names and the value columns cast to their common type, then a filter
// that drops the rows whose values are all null unless nulls are included.

#include "plan/pivot_resolution.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/ascii.h"
#include "common/error.h"
#include "functions/cast.h"
#include "functions/function.h"
#include "plan/optimizer.h"

namespace ember::plan {
namespace {

using functions::Registry;

ExprPtr null_literal() { return lit(Value(), DataType::null()); }

ExprPtr unalias(const ExprPtr& e) {
  if (e->kind == ExprKind::kAlias || e->kind == ExprKind::kUnresolvedAlias) return e->children[0];
  return e;
}

/// Spark's check that each pivot aggregate reads its columns only inside aggregate functions.
void check_pivot_aggregate(const ExprPtr& e) {
  if (e->kind == ExprKind::kAggregate) return;
  if (e->kind == ExprKind::kAttribute) {
    std::string sql;
    for (auto& q : e->qualifier) sql += q + ".";
    sql += e->name;
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1006",
                     "Aggregate expression required for pivot, but '" + sql +
                         "' did not appear in any aggregate function.",
                     {{"sql", sql}});
  }
  for (auto& c : e->children) check_pivot_aggregate(c);
}

/// Result types Spark's two-phase pivot (PivotFirst) supports.
bool two_phase_type(const DataType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kByte:
    case TypeId::kShort:
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kFloat:
    case TypeId::kDouble:
    case TypeId::kDecimal: return true;
    default: return false;
  }
}

/// A constant's text in a column name: the value cast to a string, `null` for null.
std::string value_text(const ExprPtr& literal, const Config& conf) {
  if (literal->kind == ExprKind::kLiteral && literal->value.is_null()) return "null";
  if (literal->kind == ExprKind::kLiteral && literal->type->id() == TypeId::kStruct) {
    // A row of values for several pivot columns: `{1, a}`.
    std::string s = "{";
    const auto& fields = literal->type->fields();
    for (size_t i = 0; i < fields.size(); ++i)
      s += (i ? ", " : "") + value_text(lit(literal->value.as_list()[i], fields[i].type), conf);
    return s + "}";
  }
  ExprPtr s = fold_constant(cast(literal, DataType::string()), conf);
  if (s->kind == ExprKind::kLiteral && !s->value.is_null()) return s->value.as_bytes();
  return literal->to_string();
}

/// A literal's text in Spark's error messages (its toString: strings without quotes).
std::string literal_message_text(const ExprPtr& e) {
  if (e->kind == ExprKind::kLiteral && e->type->id() == TypeId::kString && !e->value.is_null())
    return e->value.as_bytes();
  return e->to_string();
}

struct PivotValue {
  std::vector<ExprPtr> keys;  // one per pivot column, of the column's type
  std::string name;
};

/// `value` (folded) as one key per pivot column, or PIVOT_VALUE_DATA_TYPE_MISMATCH.
std::vector<ExprPtr> pivot_keys(const ExprPtr& value, const std::vector<ExprPtr>& columns, const TypePtr& pivot_type,
                                const Config& conf) {
  auto mismatch = [&]() {
    throw SparkError(ErrorKind::kAnalysis, "PIVOT_VALUE_DATA_TYPE_MISMATCH",
                     "Invalid pivot value '" + literal_message_text(value) + "': value data type " +
                         value->type->simple_string() + " does not match pivot column data type " +
                         pivot_type->simple_string() + ".",
                     {{"value", literal_message_text(value)},
                      {"valueType", value->type->simple_string()},
                      {"pivotType", pivot_type->simple_string()}},
                     "42K09");
  };
  const bool ansi = conf.ansi_enabled();
  std::vector<ExprPtr> keys;
  if (columns.size() == 1) {
    if (!functions::can_cast(*value->type, *pivot_type, ansi)) mismatch();
    keys.push_back(fold_constant(cast(value, pivot_type), conf));
    return keys;
  }
  if (value->type->id() != TypeId::kStruct || value->type->fields().size() != columns.size()) mismatch();
  const auto& fields = value->type->fields();
  // Spark casts the row to the struct of the pivot columns: a null cannot go where a column is
  // never null.
  for (size_t j = 0; j < columns.size(); ++j) {
    const bool null_field = value->value.is_null() || value->value.as_list()[j].is_null();
    if (!functions::can_cast(*fields[j].type, *columns[j]->type, ansi) || (null_field && !columns[j]->nullable))
      mismatch();
  }
  for (size_t j = 0; j < columns.size(); ++j) {
    Value v = value->value.is_null() ? Value() : value->value.as_list()[j];
    keys.push_back(fold_constant(cast(lit(v, fields[j].type), columns[j]->type), conf));
  }
  return keys;
}

/// The pivot's values, sorted, when none are given: the distinct values of the pivot column.
std::vector<PivotValue> distinct_pivot_values(const ExprPtr& column, const PlanPtr& child, const RelationResolver& r) {
  const int64_t max_values = r.conf->get_int("spark.sql.pivotMaxValues", 10000);
  auto project = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kProject, {child}));
  project->exprs = {alias(column, "__pivot_value")};
  auto distinct = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kDistinct, {project}));
  auto limit = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kLimit, {distinct}));
  limit->limit = max_values + 1;
  auto sort = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kSort, {limit}));
  sort->exprs = {sort_order(col({"__pivot_value"}), true, true)};
  std::vector<Batch> batches = r.run(r.resolve_plan(sort));
  std::vector<PivotValue> values;
  for (auto& b : batches)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      ExprPtr key = lit(b.column(0)->value_at(i), column->type);
      values.push_back({{key}, value_text(key, *r.conf)});
    }
  if (static_cast<int64_t>(values.size()) > max_values) {
    std::string name = column->to_string();
    throw SparkError(ErrorKind::kAnalysis, "_LEGACY_ERROR_TEMP_1324",
                     "The pivot column " + name + " has more than " + std::to_string(max_values) +
                         " distinct values, this could indicate an error. If this was intended, set "
                         "spark.sql.pivotMaxValues to at least the number of distinct values of the pivot column.",
                     {{"pivotCol", name}, {"maxValues", std::to_string(max_values)}});
  }
  return values;
}

/// `pivot <=> key` over every pivot column.
ExprPtr pivot_condition(const std::vector<ExprPtr>& columns, const std::vector<ExprPtr>& keys) {
  ExprPtr cond;
  for (size_t j = 0; j < columns.size(); ++j) {
    ExprPtr eq = call("<=>", {columns[j], keys[j]});
    cond = cond ? call("and", {cond, eq}) : eq;
  }
  return cond;
}

/// An unresolved aggregate expression whose aggregate functions see only the rows of one
/// pivot value: each argument becomes `if(cond, arg, null)`; first and last skip the nulls.
ExprPtr restrict_aggregates(const ExprPtr& e, const ExprPtr& cond) {
  if (e->kind == ExprKind::kUnresolvedFunction) {
    const functions::FunctionDef* def = Registry::instance().find(e->name);
    if (def && def->kind == functions::FunctionKind::kAggregate) {
      auto restrict = [&](const ExprPtr& arg) {
        ExprPtr a = arg->kind == ExprKind::kUnresolvedStar ? lit(Value::integer(1), DataType::int_()) : arg;
        return call("if", {cond, a, null_literal()});
      };
      std::string name = ascii_lower(e->name);
      std::vector<ExprPtr> args;
      if ((name == "first" || name == "last" || name == "first_value" || name == "last_value") &&
          !e->children.empty()) {
        args = {restrict(e->children[0]), lit(Value::boolean(true), DataType::boolean())};
      } else {
        for (auto& c : e->children) args.push_back(restrict(c));
      }
      return with_children(e, std::move(args));
    }
  }
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  for (auto& c : e->children) kids.push_back(restrict_aggregates(c, cond));
  return with_children(e, std::move(kids));
}

std::shared_ptr<PlanNode> aggregate_node(const PlanPtr& child, std::vector<ExprPtr> groups, std::vector<ExprPtr> aggs) {
  auto n = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kAggregate, {child}));
  n->exprs = std::move(groups);
  n->aggregates = std::move(aggs);
  return n;
}

}  // namespace

PlanPtr resolve_pivot(const PlanNode& p, const PlanPtr& child, const RelationResolver& r) {
  const Config& conf = *r.conf;
  std::vector<ExprPtr> columns;
  for (auto& c : p.pivot_columns) columns.push_back(r.resolve_expr(c, child, false));
  TypePtr pivot_type = columns[0]->type;
  if (columns.size() > 1) {
    std::vector<StructField> fields;
    for (auto& c : columns) fields.push_back({c->name, c->type, c->nullable, "{}"});
    pivot_type = DataType::struct_(std::move(fields));
  }

  // The aggregates, resolved for their checks, result types and names.
  std::vector<ExprPtr> named = r.resolve_named(p.aggregates, child, true);
  if (named.size() != p.aggregates.size())
    throw SparkError(ErrorKind::kAnalysis, "INVALID_USAGE_OF_STAR_OR_REGEX", "Invalid usage of '*' in Pivot.",
                     {{"elem", "'*'"}, {"prettyName", "Pivot"}});
  bool two_phase = true;
  for (auto& a : named) {
    check_pivot_aggregate(unalias(a));
    two_phase = two_phase && two_phase_type(*a->type);
  }

  std::vector<PivotValue> values;
  if (p.pivot_values.empty()) {
    values = distinct_pivot_values(columns[0], child, r);
  } else {
    for (auto& v : p.pivot_values) {
      ExprPtr resolved = r.resolve_expr(unalias(v), child, false);
      ExprPtr folded = fold_constant(resolved, conf);
      if (folded->kind != ExprKind::kLiteral)
        throw SparkError(ErrorKind::kAnalysis, "NON_LITERAL_PIVOT_VALUES",
                         "Literal expressions required for pivot values, found \"" + resolved->to_string() + "\".",
                         {{"expression", "\"" + resolved->to_string() + "\""}}, "42K08");
      PivotValue pv;
      pv.keys = pivot_keys(folded, columns, pivot_type, conf);
      pv.name = v->kind == ExprKind::kAlias ? v->name : value_text(folded, conf);
      values.push_back(std::move(pv));
    }
  }

  // Output names: the value alone for one aggregate, else value_aggregate.
  auto output_name = [&](const PivotValue& v, size_t i) {
    return named.size() == 1 ? v.name : v.name + "_" + named[i]->name;
  };
  std::vector<ExprPtr> groups;
  if (p.pivot_group_by_rest) {
    // SQL: the input columns that neither the pivot nor an aggregate reads.
    std::set<int64_t> used;
    std::function<void(const ExprPtr&)> refs = [&](const ExprPtr& e) {
      if (e->kind == ExprKind::kAttribute) used.insert(e->expr_id);
      for (auto& c : e->children) refs(c);
      if (e->filter) refs(e->filter);
    };
    for (auto& c : columns) refs(c);
    for (auto& a : named) refs(a);
    for (auto& a : child->output)
      if (!used.count(a->expr_id)) groups.push_back(a);
  } else {
    groups = p.exprs;
  }

  if (!two_phase) {
    std::vector<ExprPtr> outs;
    for (auto& v : values) {
      ExprPtr cond = pivot_condition(columns, v.keys);
      for (size_t i = 0; i < p.aggregates.size(); ++i)
        outs.push_back(alias(restrict_aggregates(unalias(p.aggregates[i]), cond), output_name(v, i)));
    }
    return r.resolve_plan(aggregate_node(child, groups, std::move(outs)));
  }

  // Phase one: the aggregates per (group, pivot value).
  std::vector<ExprPtr> keys = groups;
  for (size_t j = 0; j < columns.size(); ++j) keys.push_back(alias(columns[j], "__pivot_" + std::to_string(j)));
  std::vector<ExprPtr> partial;
  for (size_t i = 0; i < p.aggregates.size(); ++i)
    partial.push_back(alias(unalias(p.aggregates[i]), "__pivot_agg_" + std::to_string(i)));
  PlanPtr first = r.resolve_plan(aggregate_node(child, keys, std::move(partial)));
  const size_t n_aggs = p.aggregates.size(), n_cols = columns.size();
  const size_t n_groups = first->output.size() - n_cols - n_aggs;
  std::vector<ExprPtr> group_attrs(first->output.begin(), first->output.begin() + static_cast<long>(n_groups));
  std::vector<ExprPtr> pivot_attrs(first->output.begin() + static_cast<long>(n_groups),
                                   first->output.begin() + static_cast<long>(n_groups + n_cols));
  // Phase two: one row per group, each (value, aggregate) result in its column.
  std::vector<ExprPtr> outs;
  for (auto& v : values) {
    ExprPtr cond = pivot_condition(pivot_attrs, v.keys);
    for (size_t i = 0; i < n_aggs; ++i) {
      ExprPtr result = first->output[n_groups + n_cols + i];
      outs.push_back(alias(call("first", {call("if", {cond, result, null_literal()}),
                                          lit(Value::boolean(true), DataType::boolean())}),
                           output_name(v, i)));
    }
  }
  return r.resolve_plan(aggregate_node(first, group_attrs, std::move(outs)));
}

PlanPtr resolve_unpivot(const PlanNode& p, const PlanPtr& child, const RelationResolver& r) {
  std::vector<ExprPtr> ids;
  if (p.unpivot_ids_given) ids = r.resolve_named(p.exprs, child, false);
  std::vector<std::vector<ExprPtr>> sets;
  std::vector<std::string> set_names;
  if (p.unpivot_values_given) {
    for (size_t s = 0; s < p.unpivot_values.size(); ++s) {
      sets.push_back(r.resolve_named(p.unpivot_values[s], child, false));
      std::string name = s < p.unpivot_aliases.size() ? p.unpivot_aliases[s] : "";
      if (name.empty())
        for (size_t k = 0; k < sets.back().size(); ++k) name += (k ? "_" : "") + sets.back()[k]->name;
      set_names.push_back(name);
    }
  } else {
    // Every column that is not an id.
    std::set<int64_t> id_attrs;
    for (auto& i : ids)
      if (i->kind == ExprKind::kAttribute) id_attrs.insert(i->expr_id);
    for (auto& a : child->output)
      if (!id_attrs.count(a->expr_id)) {
        sets.push_back({a});
        set_names.push_back(a->name);
      }
  }
  if (!p.unpivot_ids_given) {
    // SQL: the ids are the input columns that no value set names.
    std::set<int64_t> used;
    for (auto& s : sets)
      for (auto& v : s)
        if (unalias(v)->kind == ExprKind::kAttribute) used.insert(unalias(v)->expr_id);
    for (auto& a : child->output)
      if (!used.count(a->expr_id)) ids.push_back(a);
  }
  if (sets.empty())
    throw SparkError(ErrorKind::kAnalysis, "UNPIVOT_REQUIRES_VALUE_COLUMNS",
                     "At least one value column needs to be specified for UNPIVOT, all columns specified as ids.", {},
                     "42K0A");
  const size_t width = p.names.size();
  for (auto& s : sets)
    if (s.size() != width)
      throw SparkError(ErrorKind::kAnalysis, "UNPIVOT_VALUE_SIZE_MISMATCH",
                       "All unpivot value columns must have the same size as there are value column names (" +
                           std::to_string(width) + ").",
                       {{"names", std::to_string(width)}}, "428C4");

  // The common type of each value column.
  std::vector<TypePtr> types(width);
  for (size_t k = 0; k < width; ++k) {
    TypePtr common = sets[0][k]->type;
    bool ok = true;
    for (auto& s : sets) {
      const TypePtr& t = s[k]->type;
      if (t->is_string_like() != common->is_string_like() && t->id() != TypeId::kNull &&
          common->id() != TypeId::kNull) {
        ok = false;
        break;
      }
      TypePtr w = functions::wider_type(common, t, false);
      if (!w) {
        ok = false;
        break;
      }
      common = w;
    }
    if (!ok) {
      std::map<std::string, std::vector<std::string>> by_type;
      for (auto& s : sets) by_type[s[k]->type->sql()].push_back(quote_id(s[k]->name));
      std::string list;
      for (auto& [type, names] : by_type) {
        std::string cols;
        for (auto& n : names) cols += (cols.empty() ? "" : ", ") + n;
        list += (list.empty() ? "" : ", ") + ("\"" + type + "\" (" + cols + ")");
      }
      throw SparkError(ErrorKind::kAnalysis, "UNPIVOT_VALUE_DATA_TYPE_MISMATCH",
                       "Unpivot value columns must share a least common type, some types do not: [" + list + "].",
                       {{"types", "[" + list + "]"}}, "42K09");
    }
    types[k] = common;
  }

  // ids, stack(n, name, values..., ...): one row per set, in order.
  std::vector<ExprPtr> stack_args = {lit(Value::integer(static_cast<int64_t>(sets.size())), DataType::int_())};
  for (size_t s = 0; s < sets.size(); ++s) {
    stack_args.push_back(lit(Value::bytes(set_names[s]), DataType::string()));
    for (size_t k = 0; k < width; ++k) {
      ExprPtr v = unalias(sets[s][k]);
      stack_args.push_back(v->type->equals(*types[k]) ? v : cast(v, types[k]));
    }
  }
  auto generate = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kProject, {child}));
  generate->exprs = ids;
  generate->exprs.push_back(call("stack", std::move(stack_args)));
  PlanPtr stacked = r.resolve_plan(generate);

  // Names of the variable and value columns; the variable column is never null.
  const size_t n_ids = ids.size();
  std::vector<ExprPtr> out(stacked->output.begin(), stacked->output.begin() + static_cast<long>(n_ids));
  auto var = std::make_shared<Expr>(*alias(stacked->output[n_ids], p.alias));
  var->type = DataType::string();
  var->nullable = false;
  out.push_back(var);
  for (size_t k = 0; k < width; ++k) {
    auto v = std::make_shared<Expr>(*alias(stacked->output[n_ids + 1 + k], p.names[k]));
    v->type = types[k];
    bool nullable = false;
    for (auto& s : sets) nullable = nullable || s[k]->nullable;
    v->nullable = nullable;
    out.push_back(v);
  }
  auto project = std::make_shared<PlanNode>();
  project->kind = PlanKind::kProject;
  project->children = {stacked};
  project->exprs = out;
  for (auto& e : out) project->output.push_back(to_attribute(e));
  project->resolved = true;
  if (p.unpivot_include_nulls) return project;

  // EXCLUDE NULLS: a row stays when any of its values is not null.
  ExprPtr keep;
  for (size_t k = 0; k < width; ++k) {
    ExprPtr nn = call("isnotnull", {project->output[n_ids + 1 + k]});
    keep = keep ? call("or", {keep, nn}) : nn;
  }
  auto filter = std::const_pointer_cast<PlanNode>(make_node(PlanKind::kFilter, {project}));
  filter->condition = keep;
  return r.resolve_plan(filter);
}

}  // namespace ember::plan
