// Aggregate functions driven through their update / merge / finalize contract, for what queries
// do not pin down: partial states merged in different splits give the sequential result (heap
// states merged into and from empty ones too), and the array results of percentile and
// percentile_approx, max_by / min_by with k, listagg and the bitmap aggregates; rows of other
// batches and partitions whose states merge in any order (first / last, max_by ties, ordered
// listagg, try_sum and decimal sums per partition).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "common/config.h"
#include "common/error.h"
#include "functions/aggregate_scope.h"
#include "functions/function.h"
#include "functions/rand.h"

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

TEST(AggregatesTest, HeapStatesMergeIntoAndFromEmptyStates) {
  // Split at 0, every row goes to the second state and merges into an empty first one (a copy
  // of its object); split at n, the empty second state merges into the first. Both must give
  // the same result, and (under the sanitizers) release every object they made.
  const int64_t n = 40;
  std::vector<double> numbers;
  std::vector<std::optional<std::string>> texts;
  for (int64_t i = 0; i < n; ++i) {
    numbers.push_back(static_cast<double>((i * 13) % 17));
    std::optional<std::string> text;  // null at rows 1, 6, 11, ...
    if (i % 5 != 1) text = std::string(1, static_cast<char>('a' + (i * 7) % 11));
    texts.push_back(text);
  }
  auto x = doubles(numbers);
  auto t = strings(texts);
  auto half = constant(DataType::double_(), Value::floating(0.5), n);
  auto three = constant(DataType::int_(), Value::integer(3), n);
  auto delim = constant(DataType::string(), Value::bytes(","), n);
  struct Case {
    const char* name;
    std::vector<ColumnPtr> args;
    size_t first_literal = SIZE_MAX;
  };
  const std::vector<Case> cases = {
      {"collect_list", {x}},
      {"collect_set", {t}},
      {"percentile", {x, half}, 1},
      {"percentile_approx", {x, half}, 1},
      {"median", {x}},
      {"histogram_numeric", {x, three}, 1},
      {"mode", {x}},
      {"listagg", {t, delim}, 1},
      {"max", {t}},
      {"min", {t}},
      {"first", {t}},
      {"last", {t}},
      {"max_by", {t, x}},
      {"min_by", {x, t}},
      {"max_by", {t, x, three}, 2},
      {"approx_count_distinct", {t}},
  };
  for (const Case& c : cases) {
    Value into_empty = aggregate(c.name, c.args, 0, c.first_literal)->value_at(0);
    Value from_empty = aggregate(c.name, c.args, n, c.first_literal)->value_at(0);
    EXPECT_FALSE(from_empty.is_null()) << c.name;
    EXPECT_EQ(into_empty, from_empty) << c.name;
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


/// Rows [begin, end) of the arguments as one batch of the input: its index and partition.
struct Piece {
  int64_t begin, end;
  int64_t batch;
  int64_t partition;
};

/// Runs `name` over `args` cut into `pieces`, each updating a partial state of its own as the
/// batch it names, then merges the states in `merge_order` (indexes into `pieces`; the first is
/// the destination). `grouped`: the function is made for an aggregation with grouping keys.
/// Arguments in `literal` are constants that an argument rule sees as literals.
ColumnPtr aggregate_pieces(const std::string& name, const std::vector<ColumnPtr>& args, const std::vector<Piece>& pieces,
                           const std::vector<size_t>& merge_order, bool grouped = false, const std::set<size_t>& literal = {},
                           bool ansi = false) {
  const FunctionDef* d = Registry::instance().find(name);
  if (!d) d = Registry::instance().find_internal(name);
  EXPECT_NE(d, nullptr) << name;
  Config conf;
  std::vector<Value> literals;
  std::vector<ArgInfo> infos;
  for (auto& a : args) literals.push_back(a->length() > 0 ? a->value_at(0) : Value());
  std::vector<TypePtr> types;
  for (size_t k = 0; k < args.size(); ++k) {
    types.push_back(args[k]->type());
    infos.push_back({types[k], true, literal.count(k) ? &literals[k] : nullptr});
  }
  Signature sig = d->arg_type_rule ? d->arg_type_rule(infos, conf) : d->type_rule(types, conf);
  EvalContext ctx;
  ctx.ansi = ansi;
  std::unique_ptr<AggregateFunction> fn;
  {
    GroupedAggregationScope scope(grouped);
    fn = d->aggregate(sig, ctx);
  }
  std::vector<std::vector<uint8_t>> states(pieces.size(), std::vector<uint8_t>(fn->state_size() + 16));
  for (size_t p = 0; p < pieces.size(); ++p) {
    fn->init(states[p].data());
    const Piece& piece = pieces[p];
    int64_t n = piece.end - piece.begin;
    std::vector<ColumnPtr> part;
    for (size_t k = 0; k < args.size(); ++k)
      part.push_back(literal.count(k) ? constant(args[k]->type(), literals[k], n) : slice(args[k], piece.begin, n));
    std::vector<uint8_t*> ptrs(static_cast<size_t>(n), states[p].data());
    PartitionScope where({piece.partition, 0, piece.batch});
    fn->update(ptrs.data(), part, n);
  }
  uint8_t* dst = states[merge_order[0]].data();
  for (size_t i = 1; i < merge_order.size(); ++i) fn->merge(dst, states[merge_order[i]].data());
  ColumnBuilder out(sig.result_type);
  fn->finalize(&dst, 1, out);
  if (fn->needs_destroy())
    for (auto& s : states) fn->destroy(s.data());
  return out.finish();
}

TEST(AggregatesTest, FirstAndLastKeepTheRowsOfInputOrderWhateverTheMergeOrder) {
  auto x = longs({10, 11, 12, 13, 14, 15});
  // Three batches taken by threads out of order: their states merge latest first.
  std::vector<Piece> pieces = {{4, 6, 2, 0}, {0, 2, 0, 0}, {2, 4, 1, 0}};
  for (const std::vector<size_t>& order : std::vector<std::vector<size_t>>{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {2, 0, 1}}) {
    EXPECT_EQ(aggregate_pieces("first", {x}, pieces, order)->values<int64_t>()[0], 10);
    EXPECT_EQ(aggregate_pieces("last", {x}, pieces, order)->values<int64_t>()[0], 15);
    EXPECT_EQ(aggregate_pieces("any_value", {x}, pieces, order)->values<int64_t>()[0], 10);
  }
  // Nulls ignored: the first and last non-null values by position.
  ColumnBuilder b(DataType::long_());
  for (int64_t i = 0; i < 6; ++i) {
    if (i == 0 || i == 5) b.append_null();
    else b.append<int64_t>(i);
  }
  auto with_nulls = b.finish();
  auto ignore = constant(DataType::boolean(), Value::boolean(true), 6);
  EXPECT_EQ(aggregate_pieces("first", {with_nulls, ignore}, pieces, {0, 2, 1}, false, {1})->values<int64_t>()[0], 1);
  EXPECT_EQ(aggregate_pieces("last", {with_nulls, ignore}, pieces, {1, 2, 0}, false, {1})->values<int64_t>()[0], 4);
  EXPECT_TRUE(aggregate_pieces("first", {with_nulls}, pieces, {0, 2, 1})->is_null(0));
}

TEST(AggregatesTest, MaxByAndMinByTiesTakeTheLastRowOfInputOrder) {
  auto values = longs({1, 2, 3, 4, 5, 6});
  auto keys = longs({7, 9, 9, 1, 9, 1});
  std::vector<Piece> pieces = {{4, 6, 2, 0}, {0, 2, 0, 0}, {2, 4, 1, 0}};
  for (const std::vector<size_t>& order : std::vector<std::vector<size_t>>{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}}) {
    EXPECT_EQ(aggregate_pieces("max_by", {values, keys}, pieces, order)->values<int64_t>()[0], 5);
    EXPECT_EQ(aggregate_pieces("min_by", {values, keys}, pieces, order)->values<int64_t>()[0], 6);
  }
}

TEST(AggregatesTest, OrderedListAggSortsByItsKeysThenInputOrder) {
  auto x = strings({"a", "b", "c", "d", "e", "f"});
  auto delim = constant(DataType::string(), Value::bytes("|"), 6);
  auto desc_nulls_last = constant(DataType::string(), Value::bytes("DL"), 6);
  ColumnBuilder kb(DataType::long_());
  for (std::optional<int64_t> k : {std::optional<int64_t>(2), std::optional<int64_t>(), std::optional<int64_t>(1),
                                   std::optional<int64_t>(2), std::optional<int64_t>(3), std::optional<int64_t>(1)}) {
    if (k) kb.append<int64_t>(*k);
    else kb.append_null();
  }
  auto keys = kb.finish();
  std::vector<Piece> pieces = {{3, 6, 1, 0}, {0, 3, 0, 0}};
  // Descending, nulls last; equal keys in input order whichever state merges first.
  for (const std::vector<size_t>& order : std::vector<std::vector<size_t>>{{0, 1}, {1, 0}})
    EXPECT_EQ(aggregate_pieces("listagg_ordered", {x, delim, desc_nulls_last, keys}, pieces, order, false, {1, 2})
                  ->string_at(0),
              "e|a|d|c|f|b");
  auto asc_nulls_first = constant(DataType::string(), Value::bytes("AF"), 6);
  EXPECT_EQ(aggregate_pieces("listagg_ordered", {x, delim, asc_nulls_first, keys}, pieces, {0, 1}, false, {1, 2})->string_at(0),
            "b|c|f|a|d|e");
}

TEST(AggregatesTest, ApproxPercentileMergesPartitionsInPartitionOrderWhateverTheMergeOrder) {
  // Spark's answers over spark.range(0, 300000, 1, 4) (quantile_summary_test.cc): a summary per
  // partition, merged in partition order, whichever thread's state merges first.
  std::vector<double> x;
  for (int64_t i = 0; i < 300000; ++i) x.push_back(static_cast<double>(i * 7919 % 100003));
  auto pcts = constant(DataType::array(DataType::double_()),
                       Value::list({Value::floating(0.1), Value::floating(0.25), Value::floating(0.5),
                                    Value::floating(0.75), Value::floating(0.9)}),
                       300000);
  auto accuracy = constant(DataType::long_(), Value::integer(100), 300000);
  std::vector<Piece> pieces = {{0, 75000, 0, 0}, {75000, 150000, 10, 1}, {150000, 225000, 20, 2},
                               {225000, 300000, 30, 3}};
  for (const std::vector<size_t>& order :
       std::vector<std::vector<size_t>>{{0, 1, 2, 3}, {3, 1, 0, 2}, {2, 0, 3, 1}}) {
    Value r = aggregate_pieces("percentile_approx", {doubles(x), pcts, accuracy}, pieces, order, false, {1, 2})
                  ->value_at(0);
    std::vector<double> got;
    for (const Value& v : r.as_list()) got.push_back(v.as_double());
    EXPECT_EQ(got, (std::vector<double>{9273, 24077, 49887, 74417, 89269}));
  }
}

TEST(AggregatesTest, ApproxPercentileStatesOfOnePartitionAddUpInOrder) {
  // A window frame merges the states of its rows in order: as if one state took the rows.
  std::vector<double> x;
  for (int64_t i = 0; i < 120000; ++i) x.push_back(static_cast<double>(i * 7919 % 100003));
  auto p = constant(DataType::double_(), Value::floating(0.3), 120000);
  auto accuracy = constant(DataType::long_(), Value::integer(100), 120000);
  double whole = aggregate("percentile_approx", {doubles(x), p, accuracy}, 120000)->values<double>()[0];
  std::vector<Piece> rows;
  std::vector<size_t> order;
  for (int64_t i = 0; i < 120000; i += 1000) {
    rows.push_back({i, i + 1000, 0, 0});
    order.push_back(order.size());
  }
  EXPECT_EQ(aggregate_pieces("percentile_approx", {doubles(x), p, accuracy}, rows, order, false, {1, 2})
                ->values<double>()[0],
            whole);
}

TEST(AggregatesTest, TrySumOfLongsIsLostOnlyWhereAPartitionOverflows) {
  const int64_t max = INT64_MAX;
  auto x = longs({max, 1, -2});
  // One partition: the running sum overflows at the second row and stays lost.
  EXPECT_TRUE(aggregate_pieces("try_sum", {x}, {{0, 3, 0, 0}}, {0})->is_null(0));
  // Partitions {max} and {1, -2}: both partial sums fit, and so does their sum.
  for (const std::vector<size_t>& order : std::vector<std::vector<size_t>>{{0, 1}, {1, 0}})
    EXPECT_EQ(aggregate_pieces("try_sum", {x}, {{0, 1, 0, 0}, {1, 3, 1, 1}}, order)->values<int64_t>()[0], max - 1);
  // One partition's rows in two states (two threads): the loss in one of them stays.
  for (const std::vector<size_t>& order : std::vector<std::vector<size_t>>{{0, 1}, {1, 0}})
    EXPECT_TRUE(aggregate_pieces("try_sum", {longs({max, 1, -1})}, {{0, 2, 0, 0}, {2, 3, 1, 0}}, order)->is_null(0));
  // Partial sums that fit but overflow when added.
  EXPECT_TRUE(aggregate_pieces("try_sum", {longs({max, max})}, {{0, 1, 0, 0}, {1, 2, 1, 1}}, {0, 1})->is_null(0));
}

ColumnPtr decimals(const std::vector<std::string>& values, int precision, int scale) {
  ColumnBuilder b(DataType::decimal(precision, scale));
  for (auto& v : values) {
    int128_t u = 0;
    bool negative = v[0] == '-';
    int frac = -1;
    for (char c : v) {
      if (c == '.') frac = 0;
      else if (c != '-') u = u * 10 + (c - '0'), frac += frac >= 0;
    }
    for (int k = std::max(frac, 0); k < scale; ++k) u *= 10;
    b.append<int128_t>(negative ? -u : u);
  }
  return b.finish();
}

TEST(AggregatesTest, DecimalSumIsLostWhereSparkKeepsItInARow) {
  const std::string max = "99999999999999999999.999999999999999999";
  auto x = decimals({max, "1", "-1"}, 38, 18);
  // Grouped: the sum leaves DECIMAL(38, 18) at the second row and is lost.
  EXPECT_TRUE(aggregate_pieces("sum", {x}, {{0, 3, 0, 0}}, {0}, true)->is_null(0));
  // Without keys the running sum of a partition is exact.
  EXPECT_EQ(decimal_to_string(aggregate_pieces("sum", {x}, {{0, 3, 0, 0}}, {0}, false)->values<int128_t>()[0], 18), max);
  // ... but a partition's partial sum must fit.
  EXPECT_TRUE(aggregate_pieces("sum", {x}, {{0, 2, 0, 0}, {2, 3, 1, 1}}, {0, 1}, false)->is_null(0));
  try {
    aggregate_pieces("avg", {x}, {{0, 3, 0, 0}}, {0}, true, {}, true);
    ADD_FAILURE() << "no error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "ARITHMETIC_OVERFLOW");
    EXPECT_NE(std::string(e.what()).find("Use 'try_avg'"), std::string::npos) << e.what();
  }
  // Partial sums that fit add up beyond the type: the total is out of range, not lost.
  try {
    aggregate_pieces("sum", {decimals({max, max}, 38, 18)}, {{0, 1, 0, 0}, {1, 2, 1, 1}}, {0, 1}, false, {}, true);
    ADD_FAILURE() << "no error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
    EXPECT_NE(std::string(e.what()).find("199999999999999999999.999999999999999998 cannot"), std::string::npos)
        << e.what();
  }
}

// A thread's state that closed one partition and holds another open merges into a state of a
// third partition: every row counts once.
TEST(AggregatesTest, DecimalSumMergesAStateOfSeveralPartitionsOnce) {
  const FunctionDef* d = Registry::instance().find("sum");
  ASSERT_NE(d, nullptr);
  auto x = decimals({"1.5", "2.25", "4"}, 10, 2);
  Signature sig = d->type_rule({x->type()}, Config());
  EvalContext ctx;
  std::unique_ptr<AggregateFunction> fn;
  {
    GroupedAggregationScope scope(false);
    fn = d->aggregate(sig, ctx);
  }
  std::vector<uint8_t> a(fn->state_size() + 16), b(fn->state_size() + 16);
  fn->init(a.data());
  fn->init(b.data());
  auto feed = [&](uint8_t* state, int64_t row, int64_t partition) {
    std::vector<uint8_t*> ptrs = {state};
    PartitionScope where({partition, 0, row});
    fn->update(ptrs.data(), {slice(x, row, 1)}, 1);
  };
  feed(a.data(), 0, 0);
  feed(a.data(), 1, 1);  // closes partition 0 in `a`
  feed(b.data(), 2, 2);
  fn->merge(b.data(), a.data());
  uint8_t* dst = b.data();
  ColumnBuilder out(sig.result_type);
  fn->finalize(&dst, 1, out);
  EXPECT_EQ(decimal_to_string(out.finish()->values<int128_t>()[0], 2), "7.75");
}

TEST(AggregatesTest, DecimalAverageDividesAtScale39ThenRounds) {
  auto avg_text = [](const std::vector<std::string>& v, int p, int s) {
    ColumnPtr r = aggregate_pieces("avg", {decimals(v, p, s)}, {{0, static_cast<int64_t>(v.size()), 0, 0}}, {0});
    return r->is_null(0) ? std::string("NULL") : decimal_to_string(r->values<int128_t>()[0], r->type()->scale());
  };
  EXPECT_EQ(avg_text({"1.5", "-2.5", "1.5"}, 38, 18), "0.1666666666666666666667");
  EXPECT_EQ(avg_text({"12345.678", "12345.678", "-0.000000000000000001", "1"}, 38, 18),
            "6173.0889999999999999997500");
  EXPECT_EQ(avg_text({"-2", "-1"}, 10, 0), "-1.5000");
  // 2/3 at scale 39 rounds up its last digit; at scale 6 the result is 0.666667.
  EXPECT_EQ(avg_text({"1", "1", "0"}, 10, 2), "0.666667");
  // A quotient beyond DECIMAL(38, 22): null without ANSI.
  EXPECT_EQ(avg_text({"-99999999999999999999.999999999999999999", "0.000000000000000001"}, 38, 18), "NULL");
}

}  // namespace
}  // namespace ember::functions
