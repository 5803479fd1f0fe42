// Table-valued functions of the DataFrame API (spark.tvf.*) and lateral joins
// (DataFrame.lateralJoin), whose right side may be such a function over the left's columns.

#include "common/error.h"
#include "connect/errors.h"
#include "connect/translate.h"
#include "plan/generator_resolution.h"
#include "plan/session.h"
#include "plan/table_argument.h"
#include "sql/builtin_table_functions.h"

namespace ember::connect {

namespace pb = spark::connect;
using plan::JoinType;
using plan::PlanKind;

namespace {

/// The integer a range() argument holds: Spark takes only foldable integral arguments.
int64_t range_argument(const plan::ExprPtr& e) {
  const plan::Expr* x = e.get();
  while (x->kind == plan::ExprKind::kAlias) x = x->children[0].get();
  if (x->kind != plan::ExprKind::kLiteral || x->value.is_null() || !x->type || !x->type->is_integral())
    throw SparkError(ErrorKind::kAnalysis, "FAILED_FUNCTION_CALL",
                     "Failed preparing of the function `range` for call. Please, double check "
                     "function's arguments.",
                     {{"funcName", "`range`"}}, "38000");
  return x->value.as_int();
}

/// Whether `p` is a function's rows alone: a Generate over one row without columns (what a
/// table-valued function or a Python UDTF call becomes).
bool is_table_function_rows(const plan::PlanPtr& p) {
  if (p->kind != PlanKind::kGenerate || p->children.size() != 1) return false;
  const plan::PlanPtr& c = p->children[0];
  return c->kind == PlanKind::kLocalRelation && c->schema.empty() && c->batches.size() == 1 &&
         c->batches[0].num_rows == 1 && c->batches[0].columns.empty();
}

/// Whether the call of the function rows `p` has a TABLE argument.
bool takes_table_argument(const plan::PlanPtr& p) {
  for (auto& a : p->exprs[0]->children)
    if (plan::is_table_argument(a->kind == plan::ExprKind::kNamedArgument ? a->children[0] : a)) return true;
  return false;
}

}  // namespace

PlanTranslator::NodePtr PlanTranslator::unresolved_table_valued_function(
    const pb::UnresolvedTableValuedFunction& r) {
  std::string name = r.function_name();
  std::string lower_name = name;
  for (char& c : lower_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<plan::ExprPtr> args = expressions(r.arguments());
  if (lower_name == "range") {
    if (args.empty() || args.size() > 4)
      throw SparkError(ErrorKind::kAnalysis, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                       "The `range` requires [1, 2, 3, 4] parameters but the actual number is " +
                           std::to_string(args.size()) + ".",
                       {{"functionName", "`range`"},
                        {"expectedNum", "[1, 2, 3, 4]"},
                        {"actualNum", std::to_string(args.size())}},
                       "42605");
    std::vector<int64_t> v;
    for (auto& a : args) v.push_back(range_argument(a));
    return plan::range_function_node(v);
  }
  if (ctx_.session != nullptr) {
    const Config& conf = ctx_.session->config();
    const bool enforce =
        conf.ansi_enabled() && conf.get_bool("spark.sql.ansi.enforceReservedKeywords", false);
    if (NodePtr fixed = sql::builtin_table_function(lower_name, args.size(), enforce)) return fixed;
  }
  // A generator or a session's table function: its rows alone, a Generate over one row without
  // columns, as SQL's `FROM f(...)`.
  auto one_row = new_node(PlanKind::kLocalRelation);
  one_row->batches.push_back(Batch({}, 1));
  auto node = new_node(PlanKind::kGenerate, {one_row});
  node->exprs = {plan::call(name, std::move(args))};
  node->table_function_call = true;
  return node;
}

PlanTranslator::NodePtr PlanTranslator::lateral_join(const pb::LateralJoin& r) {
  plan::PlanPtr left = input(r.left(), "LateralJoin");
  plan::PlanPtr right = input(r.right(), "LateralJoin");
  JoinType type = join_type_from_proto(r.join_type());
  plan::ExprPtr condition = r.has_join_condition() ? expression(r.join_condition()) : nullptr;

  // A table function over the left side's columns (spark.tvf.explode(col("a").outer()), a
  // Python UDTF called on outer columns): its rows for each left row, a Generate over the left
  // side, as SQL's `t JOIN LATERAL f(t.a)`.
  std::string alias;
  plan::PlanPtr fn = right;
  if (fn->kind == PlanKind::kSubqueryAlias && fn->children.size() == 1 && is_table_function_rows(fn->children[0])) {
    alias = fn->alias;
    fn = fn->children[0];
  }
  // Without a condition Spark's optimizer (OptimizeOneRowRelationSubquery) turns the join into
  // the Generate over the left side whatever the join type, so a LEFT join drops the left rows
  // without function rows too; a condition keeps the join, and so does a call with a TABLE
  // argument, which is no one-row subquery.
  const bool rows = is_table_function_rows(fn);
  const bool over_table = rows && takes_table_argument(fn);
  if (rows && (type == JoinType::kInner || type == JoinType::kCross || (!condition && !over_table))) {
    auto gen = std::make_shared<plan::PlanNode>(*fn);
    gen->children = {left};
    gen->lateral = true;
    if (!alias.empty()) gen->alias = alias;
    if (!condition) return gen;
    auto filter = new_node(PlanKind::kFilter, {gen});
    filter->condition = condition;
    filter->lateral = true;
    return filter;
  }
  auto join = new_node(PlanKind::kJoin, {left, right});
  join->join_type = type;
  join->lateral = true;
  join->condition = condition;
  return join;
}

}  // namespace ember::connect
