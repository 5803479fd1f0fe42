#pragma once

// Lambda arguments of higher-order functions (transform, filter, aggregate, map_filter, ...) as
// their kernels see them, and what the array and map families of those kernels share.
//
// A kernel never calls a lambda once per element: it lays out every binding of the lambda's
// parameters it needs (all elements of all rows of the batch, or the next element of each
// row for aggregate) as columns and evaluates the body once over them. Each binding names the
// input row it belongs to, so the body reads outer columns at that row.

#include <cstdint>
#include <vector>

#include "functions/function.h"

namespace ember::functions {

/// A bound lambda argument of one call, valid while its kernel runs.
class LambdaFunction {
 public:
  virtual ~LambdaFunction() = default;
  /// How many parameters the lambda declares.
  virtual size_t num_params() const = 0;
  /// Evaluates the body over `rows.size()` bindings: parameter k takes `params[k]`'s value at
  /// binding i, and columns from outside the lambda take their value at input row `rows[i]`.
  /// Returns one value per binding, of the body's type.
  virtual ColumnPtr call(const std::vector<ColumnPtr>& params, const std::vector<int32_t>& rows) const = 0;
};

/// The elements of the non-null rows of an array (or map) column, flattened: binding i is the
/// element at child position `positions[i]` of input row `rows[i]`, and `index[i]` its index in
/// the row; `offsets` (n + 1) delimit each row's bindings (none for a null row).
struct FlatElements {
  std::vector<int32_t> rows;
  std::vector<int32_t> positions;
  std::vector<int32_t> offsets;
  /// Whether positions are exactly 0, 1, ..., child length - 1 (the child can be used as is).
  bool identity = false;
};
FlatElements flatten_elements(const Column& list, int64_t n);

/// The child column `c` at `positions` (itself when the flattening is the identity).
ColumnPtr elements_at(const ColumnPtr& c, const FlatElements& flat);
/// An int column of each binding's index in its row (transform's and filter's second parameter).
ColumnPtr element_indexes(const FlatElements& flat);
/// A column given the exact type `type` (a body's result type may differ from the declared one
/// in nullability only).
ColumnPtr with_type(const ColumnPtr& c, const TypePtr& type);

/// array_sort's comparator form (higher_order_sort.cc): the comparator's two parameters, and
/// the kernel.
std::vector<LambdaParam> array_sort_params(const std::vector<ArgInfo>& args);
ColumnPtr array_sort_with_comparator(const std::vector<ColumnPtr>& args,
                                     const std::vector<const LambdaFunction*>& lambdas, int64_t n,
                                     const Signature& sig, const EvalContext& ctx);

/// DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE for argument `index` of `fn`, which must be a
/// `required` ("ARRAY", "MAP", "BOOLEAN" ...).
[[noreturn]] void throw_lambda_input_type(const std::string& fn, const std::vector<ArgInfo>& args, size_t index,
                                          const std::string& required);

/// The definition of a higher-order function taking `min_args`..`max_args` arguments, the
/// lambdas from argument `first_lambda` on.
FunctionDef higher_order(std::string name, int first_lambda, int min_args, int max_args, LambdaBinder binder,
                         ArgTypeRule rule, HigherOrderKernel kernel, std::string usage);
/// A higher-order call's signature: its argument types as given, `result`, and the arguments
/// whose nulls make the result null.
Signature higher_order_signature(const std::vector<ArgInfo>& args, TypePtr result, std::vector<int> nullable_from);

}  // namespace ember::functions
