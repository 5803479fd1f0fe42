// Higher-order kernels with a lambda written in C++: each kernel calls its lambda once per
// batch (aggregate once per element position, array_sort once per comparison round), binds
// the right rows, and keeps Spark's null rules; array_sort asks for TimSort's comparisons.

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "common/config.h"
#include "common/error.h"
#include "functions/lambda.h"

namespace ember::functions {
namespace {

using Body = std::function<ColumnPtr(const std::vector<ColumnPtr>&, const std::vector<int32_t>&)>;

/// A lambda whose body is C++; records how it was called.
class TestLambda final : public LambdaFunction {
 public:
  TestLambda(size_t params, Body body) : params_(params), body_(std::move(body)) {}
  size_t num_params() const override { return params_; }
  ColumnPtr call(const std::vector<ColumnPtr>& params, const std::vector<int32_t>& rows) const override {
    ++calls;
    bindings += static_cast<int64_t>(rows.size());
    last_rows = rows;
    return body_(params, rows);
  }
  mutable int calls = 0;
  mutable int64_t bindings = 0;
  mutable std::vector<int32_t> last_rows;

 private:
  size_t params_;
  Body body_;
};

using Ints = std::vector<std::optional<int>>;

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

/// Row i of an array<int> column as text: [1, null] or null.
std::string row_text(const ColumnPtr& c, int64_t i) {
  if (c->is_null(i)) return "null";
  const ColumnPtr& e = c->child(0);
  std::string s = "[";
  for (int32_t p = c->offsets()[i]; p < c->offsets()[i + 1]; ++p) {
    if (p > c->offsets()[i]) s += ", ";
    s += e->is_null(p) ? "null" : std::to_string(e->value_at(p).as_int());
  }
  return s + "]";
}

/// A body over int parameters, null when any parameter is null.
Body int_body(std::function<std::optional<int>(const std::vector<int64_t>&, int32_t row)> f, TypePtr type) {
  return [f, type](const std::vector<ColumnPtr>& params, const std::vector<int32_t>& rows) {
    ColumnBuilder out(type);
    for (size_t i = 0; i < rows.size(); ++i) {
      std::vector<int64_t> v;
      bool any_null = false;
      for (auto& p : params) {
        if (p->is_null(static_cast<int64_t>(i))) any_null = true;
        else v.push_back(p->value_at(static_cast<int64_t>(i)).as_int());
      }
      std::optional<int> r = any_null ? std::nullopt : f(v, rows[i]);
      if (!r) out.append_null();
      else if (type->id() == TypeId::kBoolean) out.append_bool(*r != 0);
      else out.append<int32_t>(*r);
    }
    return out.finish();
  };
}

const FunctionDef& fn(const std::string& name) { return *Registry::instance().find(name); }

Signature sig_of(const FunctionDef& d, std::vector<ArgInfo> args) { return d.arg_type_rule(args, Config()); }

TEST(HigherOrder, TransformCallsTheLambdaOncePerBatchWithParentRows) {
  ColumnPtr arr = int_arrays({Ints{1, 2}, std::nullopt, Ints{}, Ints{std::nullopt, 5}});
  TestLambda plus_index(2, int_body([](auto& v, int32_t) { return static_cast<int>(v[0] + 10 * v[1]); },
                                    DataType::int_()));
  const FunctionDef& d = fn("transform");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({arr, nullptr}, {&plus_index}, 4, s, EvalContext{});
  EXPECT_EQ(plus_index.calls, 1);
  EXPECT_EQ(plus_index.last_rows, (std::vector<int32_t>{0, 0, 3, 3}));
  EXPECT_EQ(row_text(out, 0), "[1, 12]");
  EXPECT_EQ(row_text(out, 1), "null");
  EXPECT_EQ(row_text(out, 2), "[]");
  EXPECT_EQ(row_text(out, 3), "[null, 15]");
}

TEST(HigherOrder, FilterKeepsOnlyTruePredicates) {
  ColumnPtr arr = int_arrays({Ints{1, 2, 3, std::nullopt}, std::nullopt});
  // x > 1, null for a null element: dropped like false.
  TestLambda gt1(1, int_body([](auto& v, int32_t) { return v[0] > 1 ? 1 : 0; }, DataType::boolean()));
  const FunctionDef& d = fn("filter");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::boolean(), true}});
  ColumnPtr out = d.higher_order({arr, nullptr}, {&gt1}, 2, s, EvalContext{});
  EXPECT_EQ(row_text(out, 0), "[2, 3]");
  EXPECT_EQ(row_text(out, 1), "null");
}

TEST(HigherOrder, ExistsAndForallFollowThreeValuedLogic) {
  ColumnPtr arr = int_arrays({Ints{1, std::nullopt}, Ints{3, std::nullopt}, Ints{}, Ints{0, 1}});
  TestLambda gt2(1, int_body([](auto& v, int32_t) { return v[0] > 2 ? 1 : 0; }, DataType::boolean()));
  Signature s = sig_of(fn("exists"), {{arr->type(), true}, {DataType::boolean(), true}});
  ColumnPtr ex = fn("exists").higher_order({arr, nullptr}, {&gt2}, 4, s, EvalContext{});
  EXPECT_TRUE(ex->is_null(0));  // false, unknown: unknown
  EXPECT_TRUE(ex->bool_at(1));  // true decides
  EXPECT_FALSE(ex->is_null(2));
  EXPECT_FALSE(ex->bool_at(2));  // no element: false
  EXPECT_FALSE(ex->bool_at(3));
  ColumnPtr all = fn("forall").higher_order({arr, nullptr}, {&gt2}, 4, s, EvalContext{});
  EXPECT_FALSE(all->is_null(0));
  EXPECT_FALSE(all->bool_at(0));  // false decides
  EXPECT_TRUE(all->is_null(1));   // true, unknown: unknown
  EXPECT_TRUE(all->bool_at(2));   // no element: true
}

TEST(HigherOrder, AggregateFoldsOneElementPositionPerCall) {
  ColumnPtr arr = int_arrays({Ints{1, 2, 3}, Ints{}, std::nullopt, Ints{10}});
  ColumnPtr zero = Column::constant(DataType::int_(), Value::integer(100), 4);
  TestLambda add(2, int_body([](auto& v, int32_t) { return static_cast<int>(v[0] + v[1]); }, DataType::int_()));
  TestLambda neg(1, int_body([](auto& v, int32_t) { return static_cast<int>(-v[0]); }, DataType::int_()));
  const FunctionDef& d = fn("aggregate");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::int_(), false}, {DataType::int_(), true},
                           {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({arr, zero, nullptr, nullptr}, {&add, &neg}, 4, s, EvalContext{});
  EXPECT_EQ(add.calls, 3);  // the longest row has three elements
  EXPECT_EQ(add.bindings, 4);
  EXPECT_EQ(neg.calls, 1);
  EXPECT_EQ(neg.last_rows, (std::vector<int32_t>{0, 1, 3}));
  EXPECT_EQ(out->value_at(0).as_int(), -106);
  EXPECT_EQ(out->value_at(1).as_int(), -100);
  EXPECT_TRUE(out->is_null(2));
  EXPECT_EQ(out->value_at(3).as_int(), -110);
}

TEST(HigherOrder, AggregateWorkFollowsTheElementsUnderSkew) {
  // One long row among many short ones: later steps bind only the long row.
  std::vector<std::optional<Ints>> rows;
  Ints longest;
  for (int k = 0; k < 1000; ++k) longest.push_back(1);
  rows.push_back(longest);
  for (int r = 0; r < 500; ++r) rows.push_back(Ints{r});
  ColumnPtr arr = int_arrays(rows);
  ColumnPtr zero = Column::constant(DataType::int_(), Value::integer(0), 501);
  TestLambda add(2, int_body([](auto& v, int32_t) { return static_cast<int>(v[0] + v[1]); }, DataType::int_()));
  TestLambda id(1, int_body([](auto& v, int32_t) { return static_cast<int>(v[0]); }, DataType::int_()));
  const FunctionDef& d = fn("aggregate");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::int_(), false}, {DataType::int_(), true},
                           {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({arr, zero, nullptr, nullptr}, {&add, &id}, 501, s, EvalContext{});
  EXPECT_EQ(add.calls, 1000);
  EXPECT_EQ(add.bindings, 1500);
  EXPECT_EQ(out->value_at(0).as_int(), 1000);
  EXPECT_EQ(out->value_at(1).as_int(), 0);
  EXPECT_EQ(out->value_at(500).as_int(), 499);
}

TEST(HigherOrder, ZipWithPadsTheShorterArrayWithNulls) {
  ColumnPtr a = int_arrays({Ints{1, 2, 3}, Ints{1}, std::nullopt});
  ColumnPtr b = int_arrays({Ints{10}, Ints{}, Ints{1}});
  TestLambda add(2, int_body([](auto& v, int32_t) { return static_cast<int>(v[0] + v[1]); }, DataType::int_()));
  const FunctionDef& d = fn("zip_with");
  Signature s = sig_of(d, {{a->type(), true}, {b->type(), true}, {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({a, b, nullptr}, {&add}, 3, s, EvalContext{});
  EXPECT_EQ(row_text(out, 0), "[11, null, null]");
  EXPECT_EQ(row_text(out, 1), "[null]");
  EXPECT_EQ(row_text(out, 2), "null");
}

TEST(HigherOrder, ArraySortAsksTimSortsComparisons) {
  // TimSort over [3, 1, 2]: the descending run [3, 1] is found (compare(1, 3), compare(2, 1)), then 2 is
  // binary-inserted (compare(2, 3), compare(2, 1) after the reversal): compare(3, _) is never asked, so a
  // comparator that fails on a first argument of 3 succeeds, as in Spark.
  ColumnPtr arr = int_arrays({Ints{3, 1, 2}});
  std::vector<std::pair<int, int>> asked;
  TestLambda cmp(2, [&](const std::vector<ColumnPtr>& p, const std::vector<int32_t>& rows) {
    ColumnBuilder out(DataType::int_());
    for (size_t i = 0; i < rows.size(); ++i) {
      int x = static_cast<int>(p[0]->value_at(static_cast<int64_t>(i)).as_int());
      int y = static_cast<int>(p[1]->value_at(static_cast<int64_t>(i)).as_int());
      asked.emplace_back(x, y);
      if (x == 3) out.append_null();
      else out.append<int32_t>(x - y);
    }
    return out.finish();
  });
  const FunctionDef& d = fn("array_sort");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({arr, nullptr}, {&cmp}, 1, s, EvalContext{});
  EXPECT_EQ(row_text(out, 0), "[1, 2, 3]");
  EXPECT_EQ(asked, (std::vector<std::pair<int, int>>{{1, 3}, {2, 1}, {2, 3}, {2, 1}}));
}

TEST(HigherOrder, ArraySortSortsManyRowsInRoundsAndRejectsNullComparisons) {
  std::vector<std::optional<Ints>> rows;
  for (int r = 0; r < 20; ++r) {
    Ints row;
    for (int k = 0; k < 5 + r * 3; ++k) row.push_back((k * 37 + r) % 11);
    rows.push_back(row);
  }
  rows.push_back(std::nullopt);
  ColumnPtr arr = int_arrays(rows);
  TestLambda desc(2, int_body([](auto& v, int32_t) { return static_cast<int>(v[1] - v[0]); }, DataType::int_()));
  const FunctionDef& d = fn("array_sort");
  Signature s = sig_of(d, {{arr->type(), true}, {DataType::int_(), true}});
  ColumnPtr out = d.higher_order({arr, nullptr}, {&desc}, 21, s, EvalContext{});
  for (int64_t r = 0; r < 20; ++r) {
    const int32_t* o = out->offsets();
    for (int32_t p = o[r] + 1; p < o[r + 1]; ++p)
      EXPECT_GE(out->child(0)->value_at(p - 1).as_int(), out->child(0)->value_at(p).as_int());
    EXPECT_EQ(o[r + 1] - o[r], 5 + r * 3);
  }
  EXPECT_TRUE(out->is_null(20));
  // Rounds over all rows (as many as the longest row needs), not one call per comparison.
  EXPECT_LT(desc.calls, 400);
  EXPECT_GT(desc.bindings, 5 * desc.calls);

  TestLambda null_cmp(2, int_body([](auto&, int32_t) { return std::nullopt; }, DataType::int_()));
  try {
    d.higher_order({arr, nullptr}, {&null_cmp}, 21, s, EvalContext{});
    FAIL() << "expected COMPARATOR_RETURNS_NULL";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "COMPARATOR_RETURNS_NULL");
  }
}

}  // namespace
}  // namespace ember::functions
