// Aggregates ordered within their group (see within_group_resolution.h).

#include "plan/within_group_resolution.h"

#include "column/compare.h"
#include "common/error.h"
#include "functions/kernel_util.h"
#include "plan/analyzer.h"

namespace ember::plan {

bool takes_order_within_group(const std::string& name) { return name == "listagg" || name == "string_agg"; }

void throw_within_group_unsupported(const std::string& called) {
  throw SparkError(ErrorKind::kAnalysis, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
                   "Invalid SQL syntax: The function `" + called + "` does not support WITHIN GROUP (ORDER BY ...).",
                   {{"prettyName", "`" + called + "`"}, {"syntax", "WITHIN GROUP (ORDER BY ...)"}});
}

std::vector<ExprPtr> ordered_listagg_args(std::vector<ExprPtr> args, const std::vector<ExprPtr>& keys) {
  std::vector<ExprPtr> out;
  out.push_back(args[0]);
  out.push_back(args.size() > 1 ? args[1] : lit(Value(), DataType::null()));
  std::string order;
  for (const ExprPtr& k : keys) {
    const ExprPtr& key = k->children[0];
    if (!orderable(*key->type))
      functions::throw_type_mismatch("INVALID_ORDERING_TYPE",
                                     "The `sortorder` does not support ordering on type \"" + key->type->sql() + "\".",
                                     k->to_string());
    if (!order.empty()) order += ' ';
    order += k->ascending ? 'A' : 'D';
    order += k->nulls_first ? 'F' : 'L';
  }
  out.push_back(lit(Value::bytes(order), DataType::string()));
  for (const ExprPtr& k : keys) out.push_back(k->children[0]);
  return out;
}

void check_within_group_distinct(const Expr& call) {
  if (!call.distinct) return;
  const ExprPtr& value = call.children[0];
  std::vector<ExprPtr> keys(call.children.begin() + 3, call.children.end());
  const std::string prefix = "Invalid function `listagg` with WITHIN GROUP. ";
  if (keys.size() == 1) {
    const ExprPtr& key = keys[0];
    if (semantic_key(value) == semantic_key(key)) return;
    if (value->kind == ExprKind::kCast && semantic_key(value->children[0]) == semantic_key(key)) {
      TypeId id = key->type->id();
      if (id != TypeId::kFloat && id != TypeId::kDouble && id != TypeId::kTimestamp) return;
      const std::string input = "\"" + key->type->sql() + "\"", cast = "\"" + value->type->sql() + "\"";
      throw SparkError(ErrorKind::kAnalysis, "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT_UNSAFE_CAST",
                       prefix + "The function `listagg` with DISTINCT and WITHIN GROUP (ORDER BY) is not supported "
                                "for " + input + " input. Explicitly cast the input to " + cast +
                           " before passing it to both the function argument and ORDER BY expression.",
                       {{"funcName", "`listagg`"}, {"inputType", input}, {"castType", cast}});
    }
  }
  std::string ordering;
  for (const ExprPtr& k : keys) ordering += (ordering.empty() ? "\"" : ", \"") + k->to_string() + "\"";
  const std::string arg = "\"" + value->to_string() + "\"";
  throw SparkError(ErrorKind::kAnalysis, "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT",
                   prefix + "The function is invoked with DISTINCT and WITHIN GROUP but expressions " + arg + " and " +
                       ordering + " do not match. The WITHIN GROUP ordering expression must be picked from the "
                                  "function inputs.",
                   {{"funcName", "`listagg`"}, {"funcArg", arg}, {"orderingExpr", ordering}});
}

}  // namespace ember::plan
