#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "column/column.h"
#include "functions/function.h"

namespace ember::exec {

/// A literal's column, shared by the threads of a query (columns are immutable), so that a
/// constant is not rebuilt for every batch: a shorter batch (after a filter) gets a prefix of
/// the cached column, which shares its buffers; a longer one rebuilds it. A copy of an
/// expression starts with an empty cache.
class ConstantCache {
 public:
  ConstantCache() = default;
  ConstantCache(const ConstantCache&) {}
  ConstantCache& operator=(const ConstantCache&) { return *this; }
  ColumnPtr get(const TypePtr& type, const Value& value, int64_t length) const;

 private:
  mutable std::atomic<ColumnPtr> column_;
};

/// A bound, typed expression evaluated over whole batches. Built by the physical planner from
/// a resolved logical expression: attributes become column ordinals of the input batch.
struct PhysExpr {
  /// kLambda is a lambda argument of a higher-order call (exec/lambda.h): children[0] is its
  /// body, bound over a batch of the enclosing columns it reads (`lambda_inputs`, gathered to
  /// one row per binding) followed by its parameters, whose number is `ordinal`.
  enum class Kind { kColumn, kLiteral, kCall, kCast, kCaseWhen, kIf, kCoalesce, kGetField, kLambda };
  Kind kind;
  TypePtr type;
  bool nullable = true;
  int column = -1;                              // kColumn
  Value value;                                  // kLiteral
  ConstantCache constant;                       // kLiteral
  const functions::FunctionDef* function = nullptr;  // kCall
  functions::Signature signature;               // kCall
  bool try_cast = false;                        // kCast
  bool has_else = false;                        // kCaseWhen
  int ordinal = -1;                             // kGetField; kLambda: parameter count
  std::vector<int> lambda_inputs;               // kLambda
  std::vector<std::shared_ptr<const PhysExpr>> children;
  /// How plans show this expression (the logical expression's text with attribute ids).
  std::string display;

  /// True when evaluation may raise a runtime error (ANSI arithmetic, casts), which decides
  /// whether conditional expressions must evaluate their branches lazily.
  bool may_throw() const;
  std::string to_string() const;
};
using PhysExprPtr = std::shared_ptr<const PhysExpr>;

/// Evaluates `e` over `batch`; the result has batch.num_rows values.
ColumnPtr evaluate(const PhysExpr& e, const Batch& batch, const functions::EvalContext& ctx);

/// Evaluates each of `exprs` over `batch`, raising the error Spark raises when rows fail: the
/// first failing row's. Spark computes a row's expressions before the next row's; columnar
/// kernels may fail on a later row first (one expression or argument column computed before
/// another), so on an error the rows are evaluated again in halves, the first half first, down
/// to the first row that fails. The error path costs about two evaluations of the batch.
std::vector<ColumnPtr> evaluate_in_row_order(const std::vector<PhysExprPtr>& exprs, const Batch& batch,
                                             const functions::EvalContext& ctx);

/// Whether `e` calls a function that reads where its rows sit in their partition
/// (FunctionDef::numbers_rows).
bool numbers_rows(const PhysExpr& e);

/// Rows where a boolean column is true (non-null and set), as int32 indices.
std::vector<int32_t> true_rows(const Column& predicate);

}  // namespace ember::exec
