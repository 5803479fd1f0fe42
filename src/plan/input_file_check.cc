#include "plan/input_file_check.h"

#include <set>
#include <string>

#include "common/error.h"
#include "functions/function.h"

namespace ember::plan {

namespace {

bool is_input_file_call(const Expr& e) {
  if (e.kind != ExprKind::kCall || !e.function) return false;
  const std::string& n = e.function->name;
  return n == "input_file_name" || n == "input_file_block_start" || n == "input_file_block_length";
}

const Expr* find_input_file_call(const ExprPtr& e) {
  if (!e) return nullptr;
  if (is_input_file_call(*e)) return e.get();
  for (const auto& c : e->children)
    if (const Expr* f = find_input_file_call(c)) return f;
  return find_input_file_call(e->filter);
}

/// How many file sources feed `node`, failing where a node has more than one.
int count_sources(const PlanNode& node, const Expr& call) {
  if (node.kind == PlanKind::kRead) return 1;
  if (node.children.empty()) return 0;
  int sum = 0;
  for (const auto& c : node.children) sum += count_sources(*c, call);
  if (node.kind == PlanKind::kSetOp && node.set_op == SetOpType::kUnion) return sum > 0 ? 1 : 0;
  if (sum > 1) {
    const std::string text = "\"" + call.to_string() + "\"";
    throw SparkError(ErrorKind::kAnalysis, "MULTI_SOURCES_UNSUPPORTED_FOR_EXPRESSION",
                     "The expression " + text + " does not support more than one source.", {{"expr", text}},
                     "42K0E");
  }
  return sum;
}

void check(const PlanPtr& node, std::set<const PlanNode*>& seen) {
  if (!seen.insert(node.get()).second) return;
  const Expr* call = nullptr;
  for (const auto& e : node->exprs)
    if (!call) call = find_input_file_call(e);
  for (const auto& e : node->aggregates)
    if (!call) call = find_input_file_call(e);
  if (!call) call = find_input_file_call(node->condition);
  if (call) count_sources(*node, *call);
  for (const auto& c : node->children) check(c, seen);
}

}  // namespace

void check_input_file_sources(const PlanPtr& plan) {
  std::set<const PlanNode*> seen;
  check(plan, seen);
}

}  // namespace ember::plan
