#include "functions/lambda.h"

#include "functions/collection_util.h"

namespace ember::functions {

FlatElements flatten_elements(const Column& list, int64_t n) {
  FlatElements f;
  f.offsets.assign(static_cast<size_t>(n) + 1, 0);
  const int32_t* o = list.offsets();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i)
    if (list.is_valid(i)) total += o[i + 1] - o[i];
  f.rows.reserve(static_cast<size_t>(total));
  f.positions.reserve(static_cast<size_t>(total));
  for (int64_t i = 0; i < n; ++i) {
    if (list.is_valid(i))
      for (int32_t p = o[i]; p < o[i + 1]; ++p) {
        f.rows.push_back(static_cast<int32_t>(i));
        f.positions.push_back(p);
      }
    f.offsets[static_cast<size_t>(i) + 1] = static_cast<int32_t>(f.positions.size());
  }
  f.identity = static_cast<int64_t>(f.positions.size()) == list.child(0)->length() &&
               (f.positions.empty() || f.positions.front() == 0);
  return f;
}

ColumnPtr elements_at(const ColumnPtr& c, const FlatElements& flat) {
  if (flat.identity) return c;
  return gather(*c, flat.positions.data(), static_cast<int64_t>(flat.positions.size()));
}

ColumnPtr element_indexes(const FlatElements& flat) {
  int64_t m = static_cast<int64_t>(flat.positions.size());
  auto data = Buffer::allocate(static_cast<size_t>(m) * sizeof(int32_t));
  int32_t* out = data->mutable_as<int32_t>();
  for (size_t r = 0; r + 1 < flat.offsets.size(); ++r)
    for (int32_t k = flat.offsets[r]; k < flat.offsets[r + 1]; ++k) out[k] = k - flat.offsets[r];
  return Column::make(DataType::int_(), m, nullptr, data);
}

ColumnPtr with_type(const ColumnPtr& c, const TypePtr& type) {
  if (c->type()->equals(*type)) return c;
  return Column::make(type, c->length(), c->validity_buffer(), c->data_buffer(), c->offsets_buffer(), c->children());
}

void throw_lambda_input_type(const std::string& fn, const std::vector<ArgInfo>& args, size_t index,
                             const std::string& required) {
  std::string sql = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) sql += (i ? ", " : "") + (args[i].type ? args[i].type->sql() : "lambdafunction");
  sql += ")";
  std::string actual = args[index].type ? args[index].type->sql() : "lambdafunction";
  throw_type_mismatch("UNEXPECTED_INPUT_TYPE",
                      "The " + ordinal_word(index) + " parameter requires the \"" + required + "\" type, however \"" +
                          actual + "\" has the type \"" + actual + "\".",
                      sql);
}

FunctionDef higher_order(std::string name, int first_lambda, int min_args, int max_args, LambdaBinder binder,
                         ArgTypeRule rule, HigherOrderKernel kernel, std::string usage) {
  FunctionDef d;
  d.name = std::move(name);
  d.first_lambda = first_lambda;
  d.min_args = min_args;
  d.max_args = max_args;
  d.lambda_binder = std::move(binder);
  d.arg_type_rule = std::move(rule);
  d.higher_order = std::move(kernel);
  d.usage = std::move(usage);
  return d;
}

Signature higher_order_signature(const std::vector<ArgInfo>& args, TypePtr result, std::vector<int> nullable_from) {
  Signature s;
  s.arg_types = types_of(args);
  s.result_type = std::move(result);
  s.nullable_from = std::move(nullable_from);
  return s;
}

}  // namespace ember::functions
