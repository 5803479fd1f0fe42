// DataFrame.describe and DataFrame.summary: one aggregation over the input computes every
// statistic of every column, then one row per statistic, values shown as strings, as Spark
// lays them out ("summary" column first). DataFrame.stat: cov, corr, approxQuantile, crosstab
// and sampleBy, each the plan Spark's StatFunctions build for them.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>

#include "common/error.h"
#include "common/number_format.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "functions/function.h"
#include "plan/session.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::ExprPtr;
using plan::PlanKind;

namespace {

[[noreturn]] void throw_unrecognized_statistic(const std::string& stat) {
  throw SparkError(ErrorKind::kIllegalArgument, "UNRECOGNIZED_STATISTIC",
                   "The statistic '" + stat + "' is not recognized. Valid statistics include `count`, "
                   "`count_distinct`, `approx_count_distinct`, `mean`, `stddev`, `min`, `max`, and percentile "
                   "values. Percentile must be a numeric value followed by '%', within the range 0% to 100%.",
                   {{"stats", stat}}, "42704");
}

/// The aggregate of one statistic other than a percentile over a column, as Spark's summary
/// computes it: mean and stddev read strings as doubles (try_cast), the others the column as
/// it is. Throws for a statistic Spark does not know.
ExprPtr statistic(const std::string& stat, const ExprPtr& column, const DataType& type) {
  ExprPtr c = plan::col({column->name});
  ExprPtr casted = type.id() == TypeId::kString ? plan::cast(c, DataType::double_(), true) : c;
  std::string lower = stat;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "count") return plan::call("count", {c});
  if (lower == "count_distinct") return plan::call("count", {c}, true);
  if (lower == "approx_count_distinct") return plan::call("approx_count_distinct", {c});
  if (lower == "min" || lower == "max") return plan::call(lower, {c});
  if (lower == "mean") return plan::call("avg", {casted});
  if (lower == "stddev") return plan::call("stddev", {casted});
  throw_unrecognized_statistic(stat);
}

bool is_percentile(const std::string& stat) { return !stat.empty() && stat.back() == '%'; }

/// The fraction a "25%" statistic asks for: a number from 0 to 100 before the '%'.
double percentile_of(const std::string& stat) {
  const std::string number = stat.substr(0, stat.size() - 1);
  double value = 0;
  size_t used = 0;
  try {
    value = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (number.empty() || used != number.size()) throw_unrecognized_statistic(stat);
  if (!(value >= 0 && value <= 100))
    throw SparkError(ErrorKind::kIllegalArgument, "", "requirement failed: Percentiles must be in the range [0, 1]");
  return value / 100.0;
}

/// The type of the column `name` of `child` as the analyzer resolves it (nested names and
/// UNRESOLVED_COLUMN errors included).
TypePtr column_type(plan::Session& session, const plan::PlanPtr& child, const std::string& name) {
  auto probe = new_node(PlanKind::kProject, {child});
  probe->exprs.push_back(plan::col({name}));
  return session.analyze(probe)->output.at(0)->type;
}

/// Spark's `require(...)` failures: a plain IllegalArgumentException without an error class.
[[noreturn]] void requirement_failed(const std::string& message) {
  throw SparkError(ErrorKind::kIllegalArgument, "", "requirement failed: " + message);
}

/// A numeric column as a double with nulls as 0.0, as Spark's cov and corr read their inputs.
ExprPtr zero_filled_double(const std::string& name) {
  ExprPtr c = plan::col({name});
  return plan::call("coalesce", {plan::cast(c, DataType::double_()),
                                 plan::lit(Value::floating(0.0), DataType::double_())});
}

/// The single-row aggregation `name` = coalesce(`statistic`, `otherwise`) over `child`.
PlanTranslator::NodePtr one_statistic(const plan::PlanPtr& child, ExprPtr statistic, double otherwise,
                                      const std::string& name) {
  auto agg = new_node(PlanKind::kAggregate, {child});
  ExprPtr value =
      plan::call("coalesce", {statistic, plan::lit(Value::floating(otherwise), DataType::double_())});
  agg->aggregates.push_back(plan::alias(value, name));
  return agg;
}

// Spark Connect expression messages, for relations that are easiest to state as the DataFrame
// calls Spark's own implementation makes.
pb::Expression attribute(const std::string& name) {
  pb::Expression e;
  e.mutable_unresolved_attribute()->set_unparsed_identifier(name);
  return e;
}

pb::Expression string_literal(const std::string& s) {
  pb::Expression e;
  e.mutable_literal()->set_string(s);
  return e;
}

pb::Expression function(const std::string& name, std::vector<pb::Expression> args) {
  pb::Expression e;
  auto* f = e.mutable_unresolved_function();
  f->set_function_name(name);
  for (auto& a : args) *f->add_arguments() = std::move(a);
  return e;
}

pb::Expression as_string(pb::Expression child) {
  pb::Expression e;
  *e.mutable_cast()->mutable_expr() = std::move(child);
  e.mutable_cast()->mutable_type()->mutable_string();
  return e;
}

pb::Expression aliased(pb::Expression child, const std::string& name) {
  pb::Expression e;
  *e.mutable_alias()->mutable_expr() = std::move(child);
  e.mutable_alias()->add_name(name);
  return e;
}

/// when(isnull(c), "null").otherwise(`value`): how crosstab shows a cell key.
pb::Expression null_as_text(const std::string& column, pb::Expression value) {
  return function("when", {function("isnull", {attribute(column)}), string_literal("null"), std::move(value)});
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::describe_columns(const plan::PlanPtr& child,
                                                          const std::vector<std::string>& cols,
                                                          const std::vector<std::string>& stats) {
  std::vector<ExprPtr> output = input_columns(child);
  std::vector<ExprPtr> columns;
  if (cols.empty()) {
    for (const auto& a : output)
      if (a->type->is_numeric() || a->type->id() == TypeId::kString) columns.push_back(a);
  } else {
    for (const auto& name : cols) {
      ExprPtr found;
      for (const auto& a : output)
        if (a->name == name) found = a;
      if (!found) {
        auto probe = new_node(PlanKind::kProject, {child});
        probe->exprs.push_back(plan::col({name}));
        ctx_.session->analyze(probe);  // raises UNRESOLVED_COLUMN with suggestions
      }
      columns.push_back(found);
    }
  }
  std::vector<ExprPtr> percentiles;
  for (const auto& s : stats)
    if (is_percentile(s)) percentiles.push_back(plan::lit(Value::floating(percentile_of(s)), DataType::double_()));
  // One aggregation: statistic s of column c is output __stat_s_c; the percentiles of column c
  // are one percentile_approx, output __pct_c, that each percentile row reads an element of.
  auto agg = new_node(PlanKind::kAggregate, {child});
  for (size_t c = 0; c < columns.size(); ++c) {
    for (size_t s = 0; s < stats.size(); ++s) {
      if (is_percentile(stats[s])) continue;
      ExprPtr e = statistic(stats[s], columns[c], *columns[c]->type);
      agg->aggregates.push_back(plan::alias(e, "__stat_" + std::to_string(s) + "_" + std::to_string(c)));
    }
    if (!percentiles.empty()) {
      ExprPtr value = plan::col({columns[c]->name});
      if (columns[c]->type->id() == TypeId::kString) value = plan::cast(value, DataType::double_(), true);
      ExprPtr pct = plan::call("percentile_approx", {value, plan::call("array", percentiles),
                                                     plan::lit(Value::integer(10000), DataType::int_())});
      agg->aggregates.push_back(plan::alias(pct, "__pct_" + std::to_string(c)));
    }
  }
  plan::PlanPtr stats_row = agg;
  // A row per statistic, unioned in order.
  plan::PlanPtr result;
  int64_t percentile_index = 0;
  for (size_t s = 0; s < stats.size(); ++s) {
    auto row = new_node(PlanKind::kProject, {stats_row});
    // Spark's summary column is nullable.
    ExprPtr label = plan::call("if", {plan::lit(Value::boolean(true), DataType::boolean()),
                                      plan::lit(Value::bytes(stats[s]), DataType::string()),
                                      plan::lit(Value(), DataType::string())});
    row->exprs.push_back(plan::alias(label, "summary"));
    for (size_t c = 0; c < columns.size(); ++c) {
      ExprPtr value;
      if (is_percentile(stats[s])) {
        value = plan::call("get", {plan::col({"__pct_" + std::to_string(c)}),
                                   plan::lit(Value::integer(percentile_index), DataType::int_())});
      } else {
        value = plan::col({"__stat_" + std::to_string(s) + "_" + std::to_string(c)});
      }
      row->exprs.push_back(plan::alias(plan::cast(value, DataType::string()), columns[c]->name));
    }
    if (is_percentile(stats[s])) ++percentile_index;
    if (!result) {
      result = row;
    } else {
      auto u = new_node(PlanKind::kSetOp, {result, row});
      u->set_op = plan::SetOpType::kUnion;
      u->is_all = true;
      result = u;
    }
  }
  // describe/summary of no statistics is an empty relation of just "summary".
  if (!result) {
    auto row = new_node(PlanKind::kProject, {stats_row});
    row->exprs.push_back(plan::alias(plan::lit(Value::bytes(""), DataType::string()), "summary"));
    auto none = new_node(PlanKind::kLimit, {row});
    none->limit = 0;
    return none;
  }
  // The union's node is returned as a fresh node the caller may tag with a plan id.
  auto top = new_node(PlanKind::kSubqueryAlias, {result});
  top->alias = "__summary";
  return top;
}

PlanTranslator::NodePtr PlanTranslator::describe(const pb::StatDescribe& r) {
  plan::PlanPtr child = input(r.input(), "StatDescribe");
  return describe_columns(child, {r.cols().begin(), r.cols().end()}, {"count", "mean", "stddev", "min", "max"});
}

PlanTranslator::NodePtr PlanTranslator::summary(const pb::StatSummary& r) {
  plan::PlanPtr child = input(r.input(), "StatSummary");
  std::vector<std::string> stats(r.statistics().begin(), r.statistics().end());
  if (stats.empty()) stats = {"count", "mean", "stddev", "min", "25%", "50%", "75%", "max"};
  return describe_columns(child, {}, stats);
}

PlanTranslator::NodePtr PlanTranslator::covariance(const pb::Relation& rel) {
  const bool cov = rel.rel_type_case() == pb::Relation::kCov;
  const std::string col1 = cov ? rel.cov().col1() : rel.corr().col1();
  const std::string col2 = cov ? rel.cov().col2() : rel.corr().col2();
  plan::PlanPtr child = input(cov ? rel.cov().input() : rel.corr().input(), cov ? "StatCov" : "StatCorr");
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.stat needs a session");
  if (!cov && rel.corr().has_method() && rel.corr().method() != "pearson")
    requirement_failed("Currently only the calculation of the Pearson Correlation coefficient is supported.");
  for (const auto& c : {col1, col2}) {
    TypePtr type = column_type(*ctx_.session, child, c);
    if (!type->is_numeric())
      requirement_failed(std::string("Currently ") + (cov ? "covariance" : "correlation") +
                         " calculation for columns with dataType " + type->simple_string() + " not supported.");
  }
  // Nulls count as 0.0; the statistic of no rows is 0.0 (cov) or NaN (corr).
  ExprPtr statistic = plan::call(cov ? "covar_samp" : "corr", {zero_filled_double(col1), zero_filled_double(col2)});
  return one_statistic(child, statistic, cov ? 0.0 : std::nan(""), cov ? "cov" : "corr");
}

PlanTranslator::NodePtr PlanTranslator::approx_quantile(const pb::StatApproxQuantile& r) {
  plan::PlanPtr child = input(r.input(), "StatApproxQuantile");
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.stat needs a session");
  const double relative_error = r.relative_error();
  if (!(relative_error >= 0))
    requirement_failed("Relative Error must be non-negative but got " + java_double_string(relative_error));
  std::vector<ExprPtr> probabilities;
  for (double p : r.probabilities()) {
    if (!(p >= 0 && p <= 1))
      requirement_failed("percentile should be in the range [0.0, 1.0]");
    probabilities.push_back(plan::lit(Value::floating(p), DataType::double_()));
  }
  // Spark computes the quantiles with approx_percentile of accuracy ceil(1 / error) (the largest
  // int for an error of 0, and 0, which the function rejects, for an infinite one).
  const double accuracy = relative_error > 0 ? std::min(2147483647.0, std::ceil(1 / relative_error)) : 2147483647.0;
  const TypePtr quantiles = DataType::array(DataType::double_(), false);
  std::vector<ExprPtr> columns;
  for (const auto& name : r.cols()) {
    TypePtr type = column_type(*ctx_.session, child, name);
    if (!type->is_numeric())
      throw SparkError(ErrorKind::kIllegalArgument, "",
                       "requirement failed: Quantile calculation for column " + name + " with data type " +
                           scala_type_string(*type) + " is not supported.");
    // Nulls and NaN are left out; a column of neither has no quantiles.
    ExprPtr value = plan::cast(plan::col({name}), DataType::double_());
    value = plan::call("if", {plan::call("isnan", {value}), plan::lit(Value(), DataType::double_()), value});
    ExprPtr q = plan::call("percentile_approx",
                           {value, plan::call("array", probabilities),
                            plan::lit(Value::integer(static_cast<int64_t>(accuracy)), DataType::int_())});
    columns.push_back(plan::call("coalesce", {plan::cast(q, quantiles), plan::cast(plan::call("array", {}), quantiles)}));
  }
  auto agg = new_node(PlanKind::kAggregate, {child});
  agg->aggregates.push_back(plan::alias(plan::call("array", columns), "approx_quantile"));
  return agg;
}

PlanTranslator::NodePtr PlanTranslator::crosstab(const pb::StatCrosstab& r) {
  // groupBy(c1 as text).pivot(c2 as text, without backquotes).count() with 0 for missing
  // pairs, as Spark's crossTabulate; null keys show as "null".
  pb::Relation counted;
  auto* agg = counted.mutable_aggregate();
  *agg->mutable_input() = r.input();
  agg->set_group_type(pb::Aggregate::GROUP_TYPE_PIVOT);
  *agg->add_grouping_expressions() =
      aliased(null_as_text(r.col1(), as_string(attribute(r.col1()))), r.col1() + "_" + r.col2());
  *agg->mutable_pivot()->mutable_col() = null_as_text(
      r.col2(), function("regexp_replace", {as_string(attribute(r.col2())), string_literal("`"), string_literal("")}));
  pb::Expression one;
  one.mutable_literal()->set_integer(1);
  *agg->add_aggregate_expressions() = aliased(function("count", {one}), "count");
  // The missing pairs count 0: coalesce(count, 0), a column that is never null.
  plan::PlanPtr pivoted = relation(counted);
  std::vector<ExprPtr> output = input_columns(pivoted);
  auto node = new_node(PlanKind::kProject, {pivoted});
  for (size_t i = 0; i < output.size(); ++i) {
    ExprPtr c = plan::col({output[i]->name});
    if (i > 0) c = plan::alias(plan::call("coalesce", {c, plan::lit(Value::integer(0), DataType::long_())}), output[i]->name);
    node->exprs.push_back(c);
  }
  return node;
}

PlanTranslator::NodePtr PlanTranslator::sample_by(const pb::StatSampleBy& r) {
  plan::PlanPtr child = input(r.input(), "StatSampleBy");
  EMBER_CHECK(ctx_.session != nullptr, "DataFrame.stat needs a session");
  ExprPtr stratum = expression(r.col());
  auto probe = new_node(PlanKind::kProject, {child});
  probe->exprs.push_back(stratum);
  TypePtr type = ctx_.session->analyze(probe)->output.at(0)->type;
  // Spark keeps a row when rand(seed) < the fraction of its stratum (0 for any other value).
  // Its strata are looked up as Scala values: numbers match across numeric types, a key of
  // another kind (the string "1" for an int column) matches no row.
  std::vector<ExprPtr> branches;
  for (const auto& f : r.fractions()) {
    if (!(f.fraction() >= 0 && f.fraction() <= 1))
      requirement_failed("Fractions must be in [0, 1], but got " + java_double_string(f.fraction()) + ".");
    TypedValue key = literal_from_proto(f.stratum());
    const bool both_numeric = key.type->is_numeric() && type->is_numeric();
    if (!both_numeric && !key.type->same_type(*type)) continue;
    branches.push_back(plan::call("==", {stratum, plan::lit(key.value, key.type)}));
    branches.push_back(plan::lit(Value::floating(f.fraction()), DataType::double_()));
  }
  branches.push_back(plan::lit(Value::floating(0.0), DataType::double_()));
  ExprPtr fraction = branches.size() == 1 ? branches[0] : plan::call("when", branches);
  int64_t seed = 0;
  if (r.has_seed()) {
    seed = r.seed();
  } else {
    std::random_device rd;
    seed = static_cast<int64_t>((static_cast<uint64_t>(rd()) << 32) | rd());
  }
  ExprPtr draw = plan::call("rand", {plan::lit(Value::integer(seed), DataType::long_())});
  auto node = new_node(PlanKind::kFilter, {child});
  node->condition = plan::call("<", {draw, fraction});
  return node;
}

PlanTranslator::NodePtr PlanTranslator::freq_items(const pb::StatFreqItems& r) {
  plan::PlanPtr child = input(r.input(), "StatFreqItems");
  const double support = r.has_support() ? r.support() : 0.01;
  if (!(support >= 1e-4 && support <= 1.0))
    requirement_failed("Support must be in [1e-4, 1], but got " + java_double_string(support) + ".");
  // Karp's algorithm keeps (1 / support) candidates per column, in one aggregation.
  const auto size = static_cast<int64_t>(1 / support);
  const functions::FunctionDef* def = functions::Registry::instance().find_internal("collect_frequent_items");
  EMBER_CHECK(def != nullptr, "collect_frequent_items is registered");
  auto agg = new_node(PlanKind::kAggregate, {child});
  for (const auto& name : r.cols()) {
    auto call = std::make_shared<plan::Expr>(
        *plan::call(def->name, {plan::col({name}), plan::lit(Value::integer(size), DataType::int_())}));
    call->function = def;
    agg->aggregates.push_back(plan::alias(call, name + "_freqItems"));
  }
  return agg;
}

}  // namespace ember::connect
