// Lambda evaluation in bound expressions: a lambda body reads its parameters and the enclosing
// columns it names, gathered at each element's row; a lambda nested in another reads the outer
// lambda's parameters the same way; a call evaluates its lambda once per batch.

#include "exec/lambda.h"

#include <gtest/gtest.h>

#include <optional>

#include "common/config.h"
#include "functions/function.h"

namespace ember::exec {
namespace {

using Ints = std::vector<std::optional<int>>;

ColumnPtr ints(const Ints& values) {
  ColumnBuilder b(DataType::int_());
  for (auto& v : values) {
    if (v) b.append<int32_t>(*v);
    else b.append_null();
  }
  return b.finish();
}

ColumnPtr int_arrays(const std::vector<std::optional<Ints>>& rows) {
  ColumnBuilder b(DataType::array(DataType::int_()));
  for (auto& row : rows) {
    if (!row) {
      b.append_null();
      continue;
    }
    for (auto& v : *row) {
      if (v) b.child(0).append<int32_t>(*v);
      else b.child(0).append_null();
    }
    b.close_list();
  }
  return b.finish();
}

std::string row_text(const ColumnPtr& c, int64_t i) {
  if (c->is_null(i)) return "null";
  if (c->type()->id() != TypeId::kArray) return std::to_string(c->value_at(i).as_int());
  std::string s = "[";
  for (int32_t p = c->offsets()[i]; p < c->offsets()[i + 1]; ++p)
    s += (p > c->offsets()[i] ? ", " : "") + row_text(c->child(0), p);
  return s + "]";
}

PhysExprPtr column(int ordinal, TypePtr type) {
  auto p = std::make_shared<PhysExpr>();
  p->kind = PhysExpr::Kind::kColumn;
  p->column = ordinal;
  p->type = std::move(type);
  return p;
}

PhysExprPtr call(const std::string& name, std::vector<PhysExprPtr> children) {
  const functions::FunctionDef* d = functions::Registry::instance().find(name);
  std::vector<functions::ArgInfo> infos;
  std::vector<TypePtr> types;
  for (auto& c : children) {
    infos.push_back({c->type, true});
    types.push_back(c->type);
  }
  auto p = std::make_shared<PhysExpr>();
  p->kind = PhysExpr::Kind::kCall;
  p->function = d;
  p->signature = d->arg_type_rule ? d->arg_type_rule(infos, Config()) : d->type_rule(types, Config());
  p->type = p->signature.result_type;
  p->children = std::move(children);
  return p;
}

/// A lambda over `params` parameters whose body reads the enclosing columns `inputs`.
PhysExprPtr lambda(std::vector<int> inputs, int params, PhysExprPtr body) {
  auto p = std::make_shared<PhysExpr>();
  p->kind = PhysExpr::Kind::kLambda;
  p->lambda_inputs = std::move(inputs);
  p->ordinal = params;
  p->type = body->type;
  p->children = {std::move(body)};
  return p;
}

TEST(Lambda, BodyReadsOuterColumnsAtEachElementsRow) {
  // transform(a, x -> x + n) over (a, s, n): the body's batch is [n gathered, x].
  Batch batch({int_arrays({Ints{1, 2}, Ints{3}, std::nullopt, Ints{}}), ints({7, 7, 7, 7}), ints({10, 20, 30, 40})}, 4);
  auto body = call("+", {column(1, DataType::int_()), column(0, DataType::int_())});
  auto e = call("transform", {column(0, batch.columns[0]->type()), lambda({2}, 1, body)});
  ColumnPtr out = evaluate(*e, batch, functions::EvalContext{});
  EXPECT_EQ(row_text(out, 0), "[11, 12]");
  EXPECT_EQ(row_text(out, 1), "[23]");
  EXPECT_EQ(row_text(out, 2), "null");
  EXPECT_EQ(row_text(out, 3), "[]");
}

TEST(Lambda, NestedLambdaReadsTheOuterParameterAndOuterColumns) {
  // transform(aa, arr -> transform(arr, x -> x + n + size(arr))) over (aa, n).
  ColumnBuilder b(DataType::array(DataType::array(DataType::int_())));
  auto add_row = [&](const std::vector<Ints>& row) {
    for (auto& inner : row) {
      for (auto& v : inner) b.child(0).child(0).append<int32_t>(*v);
      b.child(0).close_list();
    }
    b.close_list();
  };
  add_row({{1, 2}, {3}});
  add_row({{}});
  add_row({{5}});
  Batch batch({b.finish(), ints({100, 200, 300})}, 3);
  TypePtr inner_type = DataType::array(DataType::int_());
  // Outer lambda batch: [n, arr]. Inner lambda batch: [n, arr, x].
  auto inner_body = call("+", {call("+", {column(2, DataType::int_()), column(0, DataType::int_())}),
                               call("size", {column(1, inner_type)})});
  auto outer_body = call("transform", {column(1, inner_type), lambda({0, 1}, 1, inner_body)});
  auto e = call("transform", {column(0, batch.columns[0]->type()), lambda({1}, 1, outer_body)});
  ColumnPtr out = evaluate(*e, batch, functions::EvalContext{});
  EXPECT_EQ(row_text(out, 0), "[[103, 104], [104]]");
  EXPECT_EQ(row_text(out, 1), "[[]]");
  EXPECT_EQ(row_text(out, 2), "[[306]]");
}

TEST(Lambda, IndexParameterAndEmptyBatch) {
  Batch batch({int_arrays({Ints{5, 6, 7}})}, 1);
  auto body = call("*", {column(0, DataType::int_()), column(1, DataType::int_())});
  auto e = call("transform", {column(0, batch.columns[0]->type()), lambda({}, 2, body)});
  EXPECT_EQ(row_text(evaluate(*e, batch, functions::EvalContext{}), 0), "[0, 6, 14]");
  Batch empty({int_arrays({})}, 0);
  EXPECT_EQ(evaluate(*e, empty, functions::EvalContext{})->length(), 0);
}

}  // namespace
}  // namespace ember::exec
