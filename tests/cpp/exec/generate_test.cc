// The Generate operator: explode / posexplode / inline / stack over batches, outer rows of nulls
// for null and empty inputs, kept input columns repeated per output row, and a pipeline whose
// input spans several batches with rows (and a whole batch) that explode to nothing.

#include "exec/generate.h"

#include <gtest/gtest.h>

#include <optional>

#include "common/timezone.h"
#include "common/variant.h"
#include "exec/operators.h"
#include "exec_test_util.h"
#include "functions/variant_util.h"

namespace ember::exec {
namespace {

using Longs = std::vector<std::optional<int64_t>>;

/// An array<bigint> column; nullopt rows are null arrays.
ColumnPtr arrays(const std::vector<std::optional<Longs>>& rows) {
  ColumnBuilder b(DataType::array(DataType::long_()));
  for (auto& r : rows) {
    if (!r) {
      b.append_null();
      continue;
    }
    for (auto& v : *r) {
      if (v) b.child(0).append<int64_t>(*v);
      else b.child(0).append_null();
    }
    b.close_list();
  }
  return b.finish();
}

ColumnPtr longs(const Longs& values) {
  ColumnBuilder b(DataType::long_());
  for (auto& v : values) {
    if (v) b.append<int64_t>(*v);
    else b.append_null();
  }
  return b.finish();
}

using test_util::column;

PhysExprPtr literal(Value v, TypePtr type) {
  auto e = std::make_shared<PhysExpr>();
  e->kind = PhysExpr::Kind::kLiteral;
  e->value = std::move(v);
  e->type = std::move(type);
  return e;
}

/// Column values as text: "NULL" for nulls.
std::vector<std::string> text(const Column& c) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < c.length(); ++i) {
    Value v = c.value_at(i);
    if (v.is_null()) out.push_back("NULL");
    else if (c.type()->id() == TypeId::kString) out.push_back(v.as_bytes());
    else out.push_back(std::to_string(v.as_int()));
  }
  return out;
}

using Strings = std::vector<std::string>;

Batch run(const Generate& g, Batch b) {
  ExecContext ctx;
  g.execute(b, ctx);
  return b;
}

Batch id_and_array() {
  ColumnPtr ids = longs({1, 2, 3, 4, 5});
  ColumnPtr arr = arrays({Longs{10, std::nullopt, 30}, Longs{}, std::nullopt, Longs{40}, Longs{}});
  return Batch({ids, arr}, 5);
}

TEST(Generate, ExplodeRepeatsKeptColumnsAndSkipsEmptyAndNullArrays) {
  GeneratorSpec spec;
  spec.args = {column(1, DataType::array(DataType::long_()))};
  spec.output_types = {DataType::long_()};
  Generate g(spec, {0}, "");
  Batch out = run(g, id_and_array());
  ASSERT_EQ(out.num_rows, 4);
  ASSERT_EQ(out.num_columns(), 2u);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"1", "1", "1", "4"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"10", "NULL", "30", "40"}));
}

TEST(Generate, OuterPosExplodeGivesOneRowOfNullsForNullAndEmptyArrays) {
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::kPosExplode;
  spec.outer = true;
  spec.args = {column(1, DataType::array(DataType::long_()))};
  spec.output_types = {DataType::int_(), DataType::long_()};
  Generate g(spec, {0}, "");
  Batch out = run(g, id_and_array());
  ASSERT_EQ(out.num_rows, 7);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"1", "1", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"0", "1", "2", "NULL", "NULL", "0", "NULL"}));
  EXPECT_EQ(text(*out.columns[2]), (Strings{"10", "NULL", "30", "NULL", "NULL", "40", "NULL"}));
}

TEST(Generate, ExplodeMapGivesKeysAndValues) {
  TypePtr map_type = DataType::map(DataType::string(), DataType::long_());
  ColumnBuilder b(map_type);
  auto entry = [&](const char* k, std::optional<int64_t> v) {
    ColumnBuilder& entries = b.child(0);
    entries.child(0).append_bytes(k);
    if (v) entries.child(1).append<int64_t>(*v);
    else entries.child(1).append_null();
    entries.close_struct(true);
  };
  entry("a", 1);
  entry("b", std::nullopt);
  b.close_list();
  b.append_null();
  entry("c", 3);
  b.close_list();
  GeneratorSpec spec;
  spec.args = {column(0, map_type)};
  spec.output_types = {DataType::string(), DataType::long_()};
  Generate g(spec, {}, "");
  Batch out = run(g, Batch({b.finish()}, 3));
  ASSERT_EQ(out.num_rows, 3);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"a", "b", "c"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"1", "NULL", "3"}));
}

TEST(Generate, InlineTurnsANullStructIntoARowOfNulls) {
  TypePtr st = DataType::struct_({{"a", DataType::long_(), true, "{}"}, {"b", DataType::string(), true, "{}"}});
  TypePtr arr_type = DataType::array(st);
  ColumnBuilder b(arr_type);
  ColumnBuilder& elems = b.child(0);
  elems.child(0).append<int64_t>(1);
  elems.child(1).append_bytes("x");
  elems.close_struct(true);
  elems.child(0).append_null();
  elems.child(1).append_null();
  elems.close_struct(false);
  b.close_list();
  b.close_list();  // an empty array
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::kInline;
  spec.args = {column(0, arr_type)};
  spec.output_types = {DataType::long_(), DataType::string()};
  Generate g(spec, {}, "");
  Batch out = run(g, Batch({b.finish()}, 2));
  ASSERT_EQ(out.num_rows, 2);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"1", "NULL"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"x", "NULL"}));
}

TEST(Generate, StackInterleavesItsArgumentsAndPadsWithNulls) {
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::kStack;
  spec.stack_rows = 2;
  // stack(2, id, 'a', id * 10): rows (id, 'a') and (id * 10, NULL).
  spec.args = {column(0, DataType::long_()), literal(Value::bytes("a"), DataType::string()),
               column(1, DataType::long_())};
  spec.output_types = {DataType::long_(), DataType::string()};
  Generate g(spec, {0}, "");
  Batch out = run(g, Batch({longs({1, 2}), longs({10, 20})}, 2));
  ASSERT_EQ(out.num_rows, 4);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"1", "1", "2", "2"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"1", "10", "2", "20"}));
  EXPECT_EQ(text(*out.columns[2]), (Strings{"a", "NULL", "a", "NULL"}));
}

TEST(Generate, EmptyInputBatchGivesTypedEmptyColumns) {
  GeneratorSpec spec;
  spec.args = {column(1, DataType::array(DataType::long_()))};
  spec.output_types = {DataType::long_()};
  Generate g(spec, {0}, "");
  Batch out = run(g, Batch({longs({}), arrays({})}, 0));
  EXPECT_EQ(out.num_rows, 0);
  ASSERT_EQ(out.num_columns(), 2u);
  EXPECT_EQ(out.columns[1]->length(), 0);
}

TEST(Generate, PipelineOverSeveralBatchesKeepsOrder) {
  // Three input batches, more rows in all than one source batch: the first has a row exploding
  // to nothing between others, the second explodes to nothing at all.
  std::vector<Batch> input;
  const int64_t rows = kBatchRows + 10;
  Longs ids;
  std::vector<std::optional<Longs>> lists;
  for (int64_t i = 0; i < rows; ++i) {
    ids.push_back(i);
    lists.push_back(i % 2 == 0 ? Longs{i, -i} : Longs{});
  }
  input.push_back(Batch({longs(ids), arrays(lists)}, rows, 0));
  input.push_back(Batch({longs({-1, -2}), arrays({Longs{}, std::nullopt})}, 2, 1));
  input.push_back(Batch({longs({7}), arrays({Longs{70, 71, 72}})}, 1, 2));
  GeneratorSpec spec;
  spec.args = {column(1, DataType::array(DataType::long_()))};
  spec.output_types = {DataType::long_()};
  auto gen = std::make_unique<Generate>(spec, std::vector<int>{0}, "");
  gen->children.push_back(std::make_unique<LocalScan>(input, std::vector<int>{0, 1}));
  ExecContext ctx;
  std::vector<Batch> out = run_plan(*gen, ctx);
  std::vector<int64_t> got_ids, got_vals;
  for (auto& b : out)
    for (int64_t i = 0; i < b.num_rows; ++i) {
      got_ids.push_back(b.columns[0]->values<int64_t>()[i]);
      got_vals.push_back(b.columns[1]->values<int64_t>()[i]);
    }
  std::vector<int64_t> want_ids, want_vals;
  for (int64_t i = 0; i < rows; i += 2) {
    want_ids.insert(want_ids.end(), {i, i});
    want_vals.insert(want_vals.end(), {i, -i});
  }
  want_ids.insert(want_ids.end(), {7, 7, 7});
  want_vals.insert(want_vals.end(), {70, 71, 72});
  EXPECT_EQ(got_ids, want_ids);
  EXPECT_EQ(got_vals, want_vals);
}

/// A VARIANT column of the JSON texts; nullopt rows are SQL nulls.
ColumnPtr variants(const std::vector<std::optional<std::string>>& texts) {
  ColumnBuilder b(DataType::variant());
  for (auto& t : texts) {
    if (!t) {
      b.append_null();
      continue;
    }
    variant::Builder v;
    std::string error, duplicate;
    EXPECT_TRUE(variant::parse_json(*t, v, &error, &duplicate)) << *t;
    functions::append_variant(b, v);
  }
  return b.finish();
}

/// A VARIANT column's rows as JSON text: "NULL" for SQL nulls.
Strings json(const Column& c) {
  Strings out;
  for (int64_t i = 0; i < c.length(); ++i) {
    if (c.is_null(i)) {
      out.push_back("NULL");
      continue;
    }
    std::string s;
    variant::to_json(functions::variant_at(c, i), TimeZone::utc(), s);
    out.push_back(s);
  }
  return out;
}

TEST(Generate, VariantExplodeGivesFieldsInKeyOrderAndElements) {
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::kVariantExplode;
  spec.args = {column(1, DataType::variant())};
  spec.output_types = {DataType::int_(), DataType::string(), DataType::variant()};
  Generate g(spec, {0}, "");
  Batch in({longs({1, 2, 3, 4, 5}),
            variants({R"({"b": {"x": 1}, "a": null})", std::nullopt, "[7, \"s\"]", "5", "{}"})},
           5);
  Batch out = run(g, std::move(in));
  ASSERT_EQ(out.num_rows, 4);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"1", "1", "3", "3"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"0", "1", "0", "1"}));
  EXPECT_EQ(text(*out.columns[2]), (Strings{"a", "b", "NULL", "NULL"}));
  // A variant null is a value of its own, not a SQL null.
  EXPECT_EQ(json(*out.columns[3]), (Strings{"null", R"({"x":1})", "7", R"("s")"}));
}

TEST(Generate, OuterVariantExplodeGivesARowOfNullsForOtherValues) {
  GeneratorSpec spec;
  spec.kind = GeneratorSpec::Kind::kVariantExplode;
  spec.outer = true;
  spec.args = {column(0, DataType::variant())};
  spec.output_types = {DataType::int_(), DataType::string(), DataType::variant()};
  Generate g(spec, {}, "");
  Batch out = run(g, Batch({variants({std::nullopt, "[]", "true", "[1]"})}, 4));
  ASSERT_EQ(out.num_rows, 4);
  EXPECT_EQ(text(*out.columns[0]), (Strings{"NULL", "NULL", "NULL", "0"}));
  EXPECT_EQ(text(*out.columns[1]), (Strings{"NULL", "NULL", "NULL", "NULL"}));
  EXPECT_EQ(json(*out.columns[2]), (Strings{"NULL", "NULL", "NULL", "1"}));
}

}  // namespace
}  // namespace ember::exec
