#include "plan/range_arguments.h"

#include "common/error.h"
#include "functions/cast.h"
#include "plan/optimizer.h"
#include "plan/table_argument.h"

namespace ember::plan {

std::shared_ptr<PlanNode> range_from_arguments(
    const std::vector<ExprPtr>& args, const std::function<ExprPtr(const ExprPtr&)>& resolve,
    const Config& conf) {
  static const char* const kParameters[] = {"start", "end", "step", "numSlices"};
  static const char* const kOrdinals[] = {"first", "second", "third", "4th"};
  std::vector<int64_t> values;
  for (size_t i = 0; i < args.size(); ++i) {
    // One argument is the end; otherwise they come in the parameters' order.
    const size_t at = args.size() == 1 ? 1 : i;
    const TypePtr type = at == 3 ? DataType::int_() : DataType::long_();
    const std::string type_sql = "\"" + type->sql() + "\"";
    const std::string parameter = kParameters[at];
    const ExprPtr& arg = args[i]->kind == ExprKind::kNamedArgument ? args[i]->children[0] : args[i];
    auto non_foldable = [&] {
      throw SparkError(
          ErrorKind::kAnalysis, "NON_FOLDABLE_ARGUMENT",
          "The function `range` requires the parameter `" + parameter +
              "` to be a foldable expression of the type " + type_sql +
              ", but the actual argument is a non-foldable.",
          {{"funcName", "`range`"}, {"paramName", "`" + parameter + "`"}, {"paramType", type_sql}},
          "42K08");
    };
    if (is_table_argument(arg)) non_foldable();
    const ExprPtr e = resolve(arg);
    const ExprPtr folded = fold_constant(e, conf, true);
    if (folded->kind != ExprKind::kLiteral) non_foldable();
    ExprPtr value;
    if (!folded->value.is_null() && functions::can_cast(*folded->type, *type, conf.ansi_enabled()))
      value = fold_constant(cast(folded, type), conf, true);
    if (!value || value->kind != ExprKind::kLiteral || value->value.is_null()) {
      const std::string shown = "\"" + e->to_string() + "\"";
      const std::string input_type = "\"" + e->type->sql() + "\"";
      throw SparkError(ErrorKind::kAnalysis, "UNEXPECTED_INPUT_TYPE",
                       std::string("Parameter ") + kOrdinals[at] +
                           " of function `range` requires the " + type_sql + " type, however " +
                           shown + " has the type " + input_type + ".",
                       {{"functionName", "`range`"},
                        {"paramIndex", kOrdinals[at]},
                        {"inputSql", shown},
                        {"inputType", input_type},
                        {"requiredType", type_sql}},
                       "42K09");
    }
    values.push_back(value->value.as_int());
  }
  return range_function_node(values);
}

}  // namespace ember::plan
