// User-defined functions: Python functions (udf, pandas_udf) become kPythonUdf expressions
// that carry the client's pickled function untouched, for a Python worker to run; Python table
// functions (udtf) become generators of the same kind, called over one row without columns.

#include "connect/errors.h"
#include "connect/translate.h"
#include "connect/translate_types.h"
#include "exec/python_udf.h"

namespace ember::connect {

namespace pb = spark::connect;

plan::ExprPtr PlanTranslator::python_udf(const pb::CommonInlineUserDefinedFunction& f) {
  if (f.function_case() != pb::CommonInlineUserDefinedFunction::kPythonUdf)
    throw_not_supported("User-defined function " + f.function_name() + " in a language other than Python");
  const pb::PythonUDF& py = f.python_udf();
  if (!exec::is_scalar_python_eval_type(py.eval_type()) && !exec::is_map_python_eval_type(py.eval_type()) &&
      !exec::is_group_map_python_eval_type(py.eval_type()) &&
      py.eval_type() != static_cast<int>(exec::PythonEvalType::kCogroupedMapPandasUdf) &&
      py.eval_type() != static_cast<int>(exec::PythonEvalType::kCogroupedMapArrowUdf) &&
      py.eval_type() != static_cast<int>(exec::PythonEvalType::kGroupedAggPandasUdf) &&
      py.eval_type() != static_cast<int>(exec::PythonEvalType::kGroupedAggArrowUdf))
    throw_not_supported("Python function " + f.function_name() + " of eval type " + std::to_string(py.eval_type()));
  auto fn = std::make_shared<exec::PythonFunction>();
  fn->name = f.function_name();
  fn->eval_type = py.eval_type();
  fn->command = py.command();
  fn->python_version = py.python_ver();
  fn->return_type = type_from_proto(py.output_type());
  fn->deterministic = f.deterministic();
  auto e = std::make_shared<plan::Expr>();
  e->kind = plan::ExprKind::kPythonUdf;
  e->name = fn->name;
  e->type = fn->return_type;
  e->nullable = true;
  e->python = std::move(fn);
  for (auto& a : f.arguments()) e->children.push_back(expression(a));
  return e;
}

PlanTranslator::NodePtr PlanTranslator::map_partitions(const pb::MapPartitions& r) {
  if (!exec::is_map_python_eval_type(r.func().python_udf().eval_type()))
    throw_not_supported("mapPartitions with a function of eval type " +
                        std::to_string(r.func().python_udf().eval_type()));
  if (r.has_is_barrier() && r.is_barrier()) throw_not_supported("Barrier execution mode");
  auto node = new_node(plan::PlanKind::kMapPartitions, {input(r.input(), "MapPartitions")});
  node->exprs = {python_udf(r.func())};
  return node;
}

PlanTranslator::NodePtr PlanTranslator::group_map(const pb::GroupMap& r) {
  if (!exec::is_group_map_python_eval_type(r.func().python_udf().eval_type()))
    throw_not_supported("groupBy().apply with a function of eval type " +
                        std::to_string(r.func().python_udf().eval_type()));
  if (r.has_initial_input() || r.sorting_expressions_size() > 0 || r.has_is_map_groups_with_state())
    throw_not_supported("Stateful or sorted grouped map functions");
  auto node = new_node(plan::PlanKind::kFlatMapGroups, {input(r.input(), "GroupMap")});
  node->exprs = {python_udf(r.func())};
  for (auto& g : r.grouping_expressions()) node->exprs.push_back(expression(g));
  return node;
}

PlanTranslator::NodePtr PlanTranslator::co_group_map(const pb::CoGroupMap& r) {
  const int eval_type = r.func().python_udf().eval_type();
  if (eval_type != static_cast<int>(exec::PythonEvalType::kCogroupedMapPandasUdf) &&
      eval_type != static_cast<int>(exec::PythonEvalType::kCogroupedMapArrowUdf))
    throw_not_supported("cogroup().apply with a function of eval type " +
                        std::to_string(r.func().python_udf().eval_type()));
  if (r.input_sorting_expressions_size() > 0 || r.other_sorting_expressions_size() > 0)
    throw_not_supported("Sorted cogrouped map functions");
  if (r.input_grouping_expressions_size() != r.other_grouping_expressions_size())
    throw SparkError(ErrorKind::kAnalysis, "",
                           "requirement failed: cogroup needs as many grouping expressions on each side (" +
                               std::to_string(r.input_grouping_expressions_size()) + " and " +
                               std::to_string(r.other_grouping_expressions_size()) + ")");
  auto node = new_node(plan::PlanKind::kCoGroupMap, {input(r.input(), "CoGroupMap"), input(r.other(), "CoGroupMap")});
  node->exprs = {python_udf(r.func())};
  for (auto& g : r.input_grouping_expressions()) node->exprs.push_back(expression(g));
  for (auto& g : r.other_grouping_expressions()) node->exprs.push_back(expression(g));
  return node;
}

plan::ExprPtr PlanTranslator::python_table_function(const pb::CommonInlineUserDefinedTableFunction& f) {
  if (f.function_case() != pb::CommonInlineUserDefinedTableFunction::kPythonUdtf)
    throw_not_supported("User-defined table function " + f.function_name() + " in a language other than Python");
  const pb::PythonUDTF& py = f.python_udtf();
  if (!exec::is_table_python_eval_type(py.eval_type()))
    throw_not_supported("Python table function " + f.function_name() + " of eval type " +
                        std::to_string(py.eval_type()));
  auto fn = std::make_shared<exec::PythonFunction>();
  fn->name = f.function_name();
  fn->eval_type = py.eval_type();
  fn->command = py.command();
  fn->python_version = py.python_ver();
  if (py.has_return_type()) {
    fn->return_type = type_from_proto(py.return_type());
    if (fn->return_type->id() != TypeId::kStruct)
      throw SparkError(ErrorKind::kAnalysis, "INVALID_UDTF_RETURN_TYPE",
                       "Cannot create the function " + quote_id(f.function_name()) +
                           " because it has an invalid return type " + fn->return_type->sql() +
                           ": the return type of a Python UDTF must be a struct.",
                       {{"name", f.function_name()}}, "42000");
  }
  fn->deterministic = f.deterministic();
  auto e = std::make_shared<plan::Expr>();
  e->kind = plan::ExprKind::kGenerator;
  e->name = fn->name;
  e->python = std::move(fn);
  for (auto& a : f.arguments()) e->children.push_back(expression(a));
  return e;
}

PlanTranslator::NodePtr PlanTranslator::table_function_call(const pb::CommonInlineUserDefinedTableFunction& f) {
  // The function's rows alone: a Generate over one row without columns.
  auto one_row = new_node(plan::PlanKind::kLocalRelation);
  one_row->batches.push_back(Batch({}, 1));
  auto node = new_node(plan::PlanKind::kGenerate, {one_row});
  node->exprs = {python_table_function(f)};
  return node;
}

}  // namespace ember::connect
