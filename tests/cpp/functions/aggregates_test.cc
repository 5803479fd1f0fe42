// Aggregate functions driven through their update / merge / finalize contract, for what queries
// do not pin down: partial states merged in different splits give the sequential result, and
// the array results of percentile and percentile_approx, max_by / min_by with k, listagg and
// the bitmap aggregates.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "common/config.h"
#include "functions/function.h"

namespace ember::functions {
namespace {

ColumnPtr doubles(const std::vector<double>& values) {
  ColumnBuilder b(DataType::double_());
  for (double v : values) b.append<double>(v);
  return b.finish();
}

ColumnPtr constant(const TypePtr& type, const Value& v, int64_t n) { return Column::constant(type, v, n); }

/// Runs `name` over `args` split at row `split` into two partial states merged at the end.
/// Arguments from `first_literal` on are constants that an argument rule sees as literals.
ColumnPtr aggregate(const std::string& name, const std::vector<ColumnPtr>& args, int64_t split,
                    size_t first_literal = SIZE_MAX) {
  const FunctionDef* d = Registry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type());
  Config conf;
  // Functions with an argument rule see constant columns as literals.
  std::vector<Value> literals;
  for (auto& a : args) literals.push_back(a->length() > 0 ? a->value_at(0) : Value());
  std::vector<ArgInfo> infos;
  for (size_t k = 0; k < args.size(); ++k)
    infos.push_back({types[k], true, k >= first_literal ? &literals[k] : nullptr});
  Signature sig = d->arg_type_rule ? d->arg_type_rule(infos, conf) : d->type_rule(types, conf);
  EvalContext ctx;
  auto fn = d->aggregate(sig, ctx);
  std::vector<uint8_t> a(fn->state_size() + 16), b(fn->state_size() + 16);
  fn->init(a.data());
  fn->init(b.data());
  int64_t n = args[0]->length();
  std::vector<uint8_t*> ptrs(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ptrs[i] = i < split ? a.data() : b.data();
  fn->update(ptrs.data(), args, n);
  fn->merge(a.data(), b.data());
  ColumnBuilder out(sig.result_type);
  uint8_t* s = a.data();
  fn->finalize(&s, 1, out);
  if (fn->needs_destroy()) {
    fn->destroy(a.data());
    fn->destroy(b.data());
  }
  return out.finish();
}

TEST(AggregatesTest, CoMomentMergeMatchesOneState) {
  std::vector<double> x, y;
  for (int i = 0; i < 1000; ++i) {
    x.push_back(std::sin(i) * 100 + i);
    y.push_back(std::cos(i * 0.7) * 50 - 0.25 * i);
  }
  for (const char* fn : {"corr", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_sxy"}) {
    double whole = aggregate(fn, {doubles(y), doubles(x)}, 1000)->values<double>()[0];
    for (int64_t split : {0, 1, 137, 999}) {
      double merged = aggregate(fn, {doubles(y), doubles(x)}, split)->values<double>()[0];
      EXPECT_NEAR(merged, whole, std::abs(whole) * 1e-12) << fn << " split " << split;
    }
  }
}

TEST(AggregatesTest, MomentMergeIntoAnEmptyStateCopies) {
  // Two equal values at the double limit: the merge formula's delta² · n1 · n2 would be
  // infinity times zero when one side is empty, whichever side that is.
  const double big = 1.7976931348623157e308;
  for (int64_t split : {0, 1, 2}) {
    for (const char* fn : {"stddev_pop", "var_samp", "stddev"}) {
      ColumnPtr r = aggregate(fn, {doubles({big, big})}, split);
      EXPECT_EQ(r->values<double>()[0], 0.0) << fn << " split " << split;
    }
    ColumnPtr c = aggregate("covar_pop", {doubles({big, big}), doubles({1.0, 2.0})}, split);
    EXPECT_EQ(c->values<double>()[0], 0.0) << "covar_pop split " << split;
    EXPECT_TRUE(aggregate("skewness", {doubles({big, big})}, split)->is_null(0)) << "split " << split;
  }
}

TEST(AggregatesTest, ShapeMomentMergeMatchesOneState) {
  std::vector<double> x;
  for (int i = 0; i < 500; ++i) x.push_back(std::exp(std::sin(i)) * 10);
  for (const char* fn : {"skewness", "kurtosis"}) {
    double whole = aggregate(fn, {doubles(x)}, 500)->values<double>()[0];
    for (int64_t split : {0, 3, 250}) {
      double merged = aggregate(fn, {doubles(x)}, split)->values<double>()[0];
      EXPECT_NEAR(merged, whole, std::abs(whole) * 1e-12) << fn << " split " << split;
    }
  }
}

TEST(AggregatesTest, PercentileArrayOfPercentages) {
  auto v = doubles({7, 1, 3});
  auto pcts = constant(DataType::array(DataType::double_()),
                       Value::list({Value::floating(0.1), Value::floating(0.9)}), 3);
  for (int64_t split : {0, 1, 3}) {
    ColumnPtr out = aggregate("percentile", {v, pcts}, split);
    Value r = out->value_at(0);
    ASSERT_EQ(r.as_list().size(), 2u);
    EXPECT_DOUBLE_EQ(r.as_list()[0].as_double(), 1.4);
    EXPECT_DOUBLE_EQ(r.as_list()[1].as_double(), 6.2);
  }
}

TEST(AggregatesTest, ApproxPercentileExactForSmallInputsWhateverTheSplit) {
  std::vector<double> x;
  for (int i = 0; i < 2000; ++i) x.push_back((i * 7919) % 2000);
  auto pcts = constant(DataType::array(DataType::double_()),
                       Value::list({Value::floating(0.0), Value::floating(0.25), Value::floating(0.5),
                                    Value::floating(1.0)}),
                       2000);
  for (int64_t split : {0, 700, 2000}) {
    Value r = aggregate("percentile_approx", {doubles(x), pcts}, split)->value_at(0);
    ASSERT_EQ(r.as_list().size(), 4u);
    EXPECT_EQ(r.as_list()[0].as_double(), 0.0);
    EXPECT_EQ(r.as_list()[1].as_double(), 499.0);
    EXPECT_EQ(r.as_list()[2].as_double(), 999.0);
    EXPECT_EQ(r.as_list()[3].as_double(), 1999.0);
  }
}

TEST(AggregatesTest, ApproxPercentileWithinRankErrorForLargeInputs) {
  std::vector<double> x;
  for (int i = 0; i < 200000; ++i) x.push_back((static_cast<int64_t>(i) * 7919) % 200000);
  auto p = constant(DataType::double_(), Value::floating(0.3), 200000);
  auto accuracy = constant(DataType::long_(), Value::integer(100), 200000);
  for (int64_t split : {0, 123456}) {
    double r = aggregate("percentile_approx", {doubles(x), p, accuracy}, split)->values<double>()[0];
    EXPECT_NEAR(r, 59999, 200000 / 100.0) << split;
  }
}

ColumnPtr strings(const std::vector<std::optional<std::string>>& values) {
  ColumnBuilder b(DataType::string());
  for (auto& v : values) {
    if (v) b.append_bytes(*v);
    else b.append_null();
  }
  return b.finish();
}

ColumnPtr longs(const std::vector<int64_t>& values) {
  ColumnBuilder b(DataType::long_());
  for (int64_t v : values) b.append<int64_t>(v);
  return b.finish();
}

TEST(AggregatesTest, ListAggMergesInArrivalOrder) {
  auto x = strings({"a", "b", std::nullopt, "c", "d"});
  auto delim = constant(DataType::string(), Value::bytes(", "), 5);
  for (int64_t split : {0, 1, 2, 3, 5}) {
    ColumnPtr r = aggregate("listagg", {x, delim}, split, 1);
    EXPECT_EQ(r->string_at(0), "a, b, c, d") << split;
  }
  EXPECT_TRUE(aggregate("listagg", {strings({std::nullopt}), delim}, 1, 1)->is_null(0));
}

TEST(AggregatesTest, MaxByWithKKeepsTheBestRowsWhateverTheSplit) {
  std::vector<int64_t> keys, values;
  for (int64_t i = 0; i < 500; ++i) {
    keys.push_back((i * 37) % 101);  // each key about five times: ties everywhere
    values.push_back(i);
  }
  auto k = constant(DataType::int_(), Value::integer(7), 500);
  Value whole = aggregate("max_by", {longs(values), longs(keys), k}, 500, 2)->value_at(0);
  ASSERT_EQ(whole.as_list().size(), 7u);
  // Key 100 first (its earliest rows first), then key 99.
  EXPECT_EQ(whole.as_list()[0].as_int(), 30);
  for (int64_t split : {0, 1, 250, 499}) {
    Value merged = aggregate("max_by", {longs(values), longs(keys), k}, split, 2)->value_at(0);
    ASSERT_EQ(merged.as_list().size(), 7u);
    for (size_t i = 0; i < 7; ++i) EXPECT_EQ(merged.as_list()[i].as_int(), whole.as_list()[i].as_int()) << split;
  }
}

TEST(AggregatesTest, BitmapAggregatesMergeToTheSequentialBitmap) {
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < 3000; ++i) positions.push_back((i * 7919) % 32768);
  ColumnPtr whole = aggregate("bitmap_construct_agg", {longs(positions)}, 3000);
  ASSERT_EQ(whole->string_at(0).size(), 4096u);
  for (int64_t split : {0, 1, 1500}) EXPECT_EQ(aggregate("bitmap_construct_agg", {longs(positions)}, split)->string_at(0),
                                              whole->string_at(0));
  ColumnBuilder b(DataType::binary());
  b.append_bytes(std::string("\xF0\x0F", 2));
  b.append_bytes(std::string(5000, '\x3C'));
  b.append_bytes(std::string("\xFF", 1));
  ColumnPtr maps = b.finish();
  for (int64_t split : {0, 1, 2, 3}) {
    std::string o(aggregate("bitmap_or_agg", {maps}, split)->string_at(0));
    std::string a(aggregate("bitmap_and_agg", {maps}, split)->string_at(0));
    ASSERT_EQ(o.size(), 4096u);
    EXPECT_EQ(static_cast<uint8_t>(o[0]), 0xFF);
    EXPECT_EQ(static_cast<uint8_t>(o[1]), 0x3F);
    EXPECT_EQ(static_cast<uint8_t>(o[4095]), 0x3C);
    // AND pads shorter bitmaps with zero bytes.
    EXPECT_EQ(static_cast<uint8_t>(a[0]), 0x30);
    EXPECT_EQ(static_cast<uint8_t>(a[1]), 0x00);
    EXPECT_EQ(static_cast<uint8_t>(a[4095]), 0x00);
  }
}

/// Runs min or max over `x` with one state per row as `state_of` assigns them (-1: no state, as
/// a FILTER clause leaves a row) and returns each state's answer, nullopt for none.
std::vector<std::optional<std::string>> min_max_by_state(const ColumnPtr& x, const std::vector<int>& state_of,
                                                         int states, bool max) {
  const FunctionDef* d = Registry::instance().find(max ? "max" : "min");
  Signature sig = d->type_rule({x->type()}, Config());
  EvalContext ctx;
  auto fn = d->aggregate(sig, ctx);
  std::vector<std::vector<uint8_t>> held(static_cast<size_t>(states), std::vector<uint8_t>(fn->state_size()));
  for (auto& s : held) fn->init(s.data());
  std::vector<uint8_t*> ptrs;
  for (int s : state_of) ptrs.push_back(s < 0 ? nullptr : held[static_cast<size_t>(s)].data());
  fn->update(ptrs.data(), {x}, x->length());
  ColumnBuilder out(sig.result_type);
  for (auto& s : held) {
    uint8_t* p = s.data();
    fn->finalize(&p, 1, out);
    fn->destroy(s.data());
  }
  ColumnPtr r = out.finish();
  std::vector<std::optional<std::string>> answers;
  for (int64_t i = 0; i < r->length(); ++i)
    answers.push_back(r->is_null(i) ? std::nullopt : std::optional<std::string>(std::string(r->string_at(i))));
  return answers;
}

TEST(AggregatesTest, StringMinMaxOverDictionaryCodesMatchesEveryRow) {
  // A dictionary that repeats a value under two codes, with an empty string and a prefix.
  const std::vector<std::string> dictionary = {"pear", "apple", "zoo", "", "app", "apple", "\xC3\xA9t\xC3\xA9"};
  const int64_t n = 2000;
  ColumnBuilder b(DataType::string());
  auto codes = std::make_shared<DictionaryCodes>();
  codes->cardinality = static_cast<int32_t>(dictionary.size());
  codes->codes = Buffer::allocate(static_cast<size_t>(n) * sizeof(int32_t));
  int32_t* code = codes->codes->mutable_as<int32_t>();
  std::vector<int> state_of;
  for (int64_t i = 0; i < n; ++i) {
    const bool null = i % 11 == 3;
    code[i] = null ? 12345 : static_cast<int32_t>((i * 7 + i / 13) % 7);  // a null row's code is arbitrary
    if (null) b.append_null();
    else b.append_bytes(dictionary[static_cast<size_t>(code[i])]);
    // A long run of state 0, short alternating runs, a long run of state 1 with unstated rows
    // in it, and a state whose only rows are null.
    int s = i < 700 ? 0 : i < 760 ? static_cast<int>(i % 2) : 1;
    if (i >= 1500 && i < 1530) s = -1;
    if (i == 1598) s = 2;
    state_of.push_back(s);
  }
  code[1598] = 0;
  ColumnPtr plain = b.finish();
  ASSERT_TRUE(plain->is_null(1598));
  ColumnPtr coded = plain->with_dictionary_codes(codes);
  ASSERT_NE(coded->dictionary_codes(), nullptr);
  for (bool max : {false, true}) {
    std::vector<std::optional<std::string>> expected(3);
    for (int64_t i = 0; i < n; ++i) {
      const int s = state_of[static_cast<size_t>(i)];
      if (s < 0 || plain->is_null(i)) continue;
      const std::string v(plain->string_at(i));
      auto& e = expected[static_cast<size_t>(s)];
      if (!e || (max ? v > *e : v < *e)) e = v;
    }
    ASSERT_FALSE(expected[2].has_value());
    EXPECT_EQ(min_max_by_state(coded, state_of, 3, max), expected) << max;
    EXPECT_EQ(min_max_by_state(plain, state_of, 3, max), expected) << max;
    // One state for every row: a global aggregate. Bytes compare unsigned: é sorts after z.
    std::vector<int> one(static_cast<size_t>(n), 0);
    EXPECT_EQ(min_max_by_state(coded, one, 1, max)[0], max ? std::optional<std::string>("\xC3\xA9t\xC3\xA9")
                                                           : std::optional<std::string>("")) << max;
  }
}

}  // namespace
}  // namespace ember::functions
