#include "plan/python_udf_extraction.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "common/config.h"
#include "common/error.h"
#include "exec/python_udf.h"
#include "gpu/device.h"

namespace ember::plan {

exec::PythonSettings python_settings(const Config& conf) {
  exec::PythonSettings s;
  s.executable = conf.get_or("spark.pyspark.python", "");
  s.max_records_per_batch = conf.get_int("spark.sql.execution.arrow.maxRecordsPerBatch", 10000);
  static const char* kPrefixes[] = {"spark.sql.execution.arrow.", "spark.sql.execution.pandas.",
                                    "spark.sql.execution.pythonUDF.", "spark.sql.legacy.execution.pandas.",
                                    "spark.sql.legacy.execution.pythonUDF.", "spark.sql.execution.pyspark.",
                                    "spark.sql.legacy.execution.pythonUDTF."};
  for (auto& [k, v] : conf.all())
    for (const char* prefix : kPrefixes)
      if (k.rfind(prefix, 0) == 0) s.runner_conf[k] = v;
  s.runner_conf["spark.sql.session.timeZone"] = conf.session_time_zone();
  s.runner_conf["spark.sql.execution.arrow.maxRecordsPerBatch"] = std::to_string(s.max_records_per_batch);
  // GPU slots: the tasks' share of a GPU, and the GPUs (spark.executor.resource.gpu.amount of
  // them, else the one this process can use).
  const std::string amount = conf.get_or("spark.task.resource.gpu.amount", "");
  if (!amount.empty()) {
    char* end = nullptr;
    s.gpu_amount = std::strtod(amount.c_str(), &end);
    if (end == amount.c_str() || *end != '\0' || !(s.gpu_amount >= 0))
      throw SparkError(ErrorKind::kIllegalArgument, "INVALID_CONF_VALUE",
                       "The value '" + amount + "' in the config \"spark.task.resource.gpu.amount\" is invalid. "
                       "It must be a number of GPUs (0.25, 1, 2, ...).",
                       {{"confValue", amount}, {"confName", "spark.task.resource.gpu.amount"}}, "22022");
  }
  if (s.gpu_amount > 0) {
    int64_t gpus = conf.get_int("spark.executor.resource.gpu.amount", gpu::device_info().available ? 1 : 0);
    for (int64_t i = 0; i < gpus; ++i) s.gpu_addresses.push_back(std::to_string(i));
  }
  return s;
}

namespace {

/// The Python calls of `e` whose arguments call no Python function, in order of appearance.
void innermost_calls(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind == ExprKind::kPythonUdf) {
    bool nested = false;
    for (auto& c : e->children) nested |= contains_python_udf(c);
    if (!nested) {
      for (auto& seen : out)
        if (seen == e) return;
      out.push_back(e);
      return;
    }
  }
  for (auto& c : e->children) innermost_calls(c, out);
}

ExprPtr replace_calls(const ExprPtr& e, const std::map<const Expr*, ExprPtr>& results) {
  auto it = results.find(e.get());
  if (it != results.end()) return it->second;
  if (e->children.empty()) return e;
  std::vector<ExprPtr> kids;
  bool changed = false;
  for (auto& c : e->children) {
    kids.push_back(replace_calls(c, results));
    changed |= kids.back() != c;
  }
  return changed ? with_children(e, std::move(kids)) : e;
}

}  // namespace

bool contains_python_udf(const ExprPtr& e) {
  if (e->kind == ExprKind::kPythonUdf) return true;
  for (auto& c : e->children)
    if (contains_python_udf(c)) return true;
  return false;
}

std::vector<ExprPtr> extract_python_udfs(const std::vector<ExprPtr>& exprs, PhysicalPlan& c, const Config& conf) {
  std::vector<ExprPtr> out = exprs;
  int next_result = 0;
  for (;;) {
    std::vector<ExprPtr> calls;
    for (auto& e : out) innermost_calls(e, calls);
    if (calls.empty()) return out;
    // One operator per eval type, in the order the types first appear.
    std::vector<int> eval_types;
    for (auto& call : calls)
      if (std::find(eval_types.begin(), eval_types.end(), call->python->eval_type) == eval_types.end())
        eval_types.push_back(call->python->eval_type);
    std::map<const Expr*, ExprPtr> results;
    for (int eval_type : eval_types) {
      std::vector<std::shared_ptr<const exec::PythonFunction>> functions;
      std::vector<std::vector<exec::PhysExprPtr>> args;
      std::vector<std::string> names;
      std::vector<ExprPtr> attrs;
      for (auto& call : calls) {
        if (call->python->eval_type != eval_type) continue;
        functions.push_back(call->python);
        std::vector<exec::PhysExprPtr> bound;
        for (auto& a : call->children) bound.push_back(bind_expr(a, c.output, conf));
        args.push_back(std::move(bound));
        ExprPtr attr = attribute("pythonUDF" + std::to_string(next_result++), call->type, call->nullable, new_expr_id());
        names.push_back(attr->name + "#" + std::to_string(attr->expr_id));
        attrs.push_back(attr);
        results[call.get()] = attr;
      }
      auto op = std::make_unique<exec::PythonEval>(eval_type, std::move(functions), std::move(args),
                                                   std::move(names), python_settings(conf));
      op->children.push_back(std::move(c.root));
      c.root = std::move(op);
      c.output.insert(c.output.end(), attrs.begin(), attrs.end());
    }
    for (auto& e : out) e = replace_calls(e, results);
  }
}

}  // namespace ember::plan
