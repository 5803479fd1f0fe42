// Window function evaluation: aggregates over sliding, running and whole-partition frames
// against a brute-force reference, RANGE frames with descending keys and nulls, offsets, and
// DISTINCT aggregate states.

#include "exec/window_functions.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

#include "exec/distinct_aggregate.h"
#include "functions/function.h"

namespace ember::exec {
namespace {

ColumnPtr longs(const std::vector<std::optional<int64_t>>& values) {
  ColumnBuilder b(DataType::long_());
  for (auto& v : values) {
    if (v) b.append<int64_t>(*v);
    else b.append_null();
  }
  return b.finish();
}

WindowChunk one_partition_chunk(int64_t n, ColumnPtr key = nullptr, bool asc = true) {
  WindowChunk c;
  c.length = n;
  c.partition_starts = {0, n};
  c.peer_break.assign(static_cast<size_t>(n), 1);
  if (key) {
    for (int64_t i = 1; i < n; ++i) {
      bool both_null = key->is_null(i) && key->is_null(i - 1);
      bool equal = !key->is_null(i) && !key->is_null(i - 1) && key->values<int64_t>()[i] == key->values<int64_t>()[i - 1];
      c.peer_break[i] = !(both_null || equal);
    }
  }
  c.range_key = key;
  c.range_ascending = asc;
  return c;
}

WindowCall aggregate_call(const std::string& name, FrameBounds frame) {
  WindowCall call;
  call.kind = WindowCall::Kind::kAggregate;
  call.function = functions::Registry::instance().find(name);
  Config conf;
  call.signature = call.function->type_rule({DataType::long_()}, conf);
  call.type = call.signature.result_type;
  call.frame = frame;
  return call;
}

TEST(WindowFunctions, SlidingAndRunningAggregatesMatchBruteForce) {
  std::mt19937 rng(7);
  const int64_t n = 300;
  std::vector<std::optional<int64_t>> vals;
  for (int64_t i = 0; i < n; ++i) vals.push_back(rng() % 5 == 0 ? std::nullopt : std::optional<int64_t>(rng() % 100 - 50));
  ColumnPtr col = longs(vals);
  WindowChunk chunk = one_partition_chunk(n);
  functions::EvalContext ctx;
  const std::vector<std::pair<int64_t, int64_t>> frames = {
      {-3, 2}, {INT64_MIN, 0}, {INT64_MIN, 4}, {0, INT64_MAX}, {-5, -1}, {2, 7}, {INT64_MIN, INT64_MAX}};
  for (const char* fn : {"sum", "min", "max", "count"}) {
    for (auto [lo, hi] : frames) {
      FrameBounds f{true, lo, hi};
      ColumnPtr got = evaluate_window_call(aggregate_call(fn, f), {col}, chunk, ctx);
      for (int64_t i = 0; i < n; ++i) {
        int64_t s = lo == INT64_MIN ? 0 : std::max<int64_t>(0, i + lo);
        int64_t e = hi == INT64_MAX ? n : std::min<int64_t>(n, i + hi + 1);
        std::optional<int64_t> want;
        int64_t count = 0;
        for (int64_t j = s; j < e; ++j) {
          if (!vals[j]) continue;
          ++count;
          int64_t v = *vals[j];
          if (!want) want = v;
          else if (std::string(fn) == "sum") *want += v;
          else if (std::string(fn) == "min") want = std::min(*want, v);
          else if (std::string(fn) == "max") want = std::max(*want, v);
        }
        if (std::string(fn) == "count") {
          ASSERT_EQ(got->values<int64_t>()[i], count) << fn << " row " << i;
        } else if (!want) {
          ASSERT_TRUE(got->is_null(i)) << fn << " row " << i << " frame " << lo << ".." << hi;
        } else {
          ASSERT_FALSE(got->is_null(i)) << fn << " row " << i;
          ASSERT_EQ(got->values<int64_t>()[i], *want) << fn << " row " << i << " frame " << lo << ".." << hi;
        }
      }
    }
  }
}

TEST(WindowFunctions, RangeFramesOverDescendingKeysWithNulls) {
  // Sorted DESC NULLS LAST: 9, 7, 7, 4, 1, null, null.
  ColumnPtr key = longs({9, 7, 7, 4, 1, std::nullopt, std::nullopt});
  WindowChunk chunk = one_partition_chunk(7, key, /*asc=*/false);
  std::vector<int64_t> ps(7), pe(7);
  for (int64_t i = 0; i < 7; ++i) ps[i] = (i > 0 && !chunk.peer_break[i]) ? ps[i - 1] : i;
  for (int64_t i = 6; i >= 0; --i) pe[i] = (i < 6 && !chunk.peer_break[i + 1]) ? pe[i + 1] : i + 1;
  // RANGE BETWEEN 2 PRECEDING AND CURRENT ROW: values in [v, v + 2] for a descending key.
  PartitionFrames f = compute_frames(FrameBounds{false, -2, 0}, 7, ps, pe, chunk, 0);
  std::vector<int64_t> start = {0, 0, 0, 3, 4, 5, 5}, end = {1, 3, 3, 4, 5, 7, 7};
  EXPECT_EQ(f.start, start);
  EXPECT_EQ(f.end, end);
  // RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING: values in [v - 3, v - 1].
  f = compute_frames(FrameBounds{false, 1, 3}, 7, ps, pe, chunk, 0);
  start = {1, 3, 3, 4, 5, 5, 5};
  end = {3, 4, 4, 5, 5, 7, 7};
  EXPECT_EQ(f.start, start);
  EXPECT_EQ(f.end, end);
}

TEST(WindowFunctions, LagLeadRespectPartitionsAndDefaults) {
  ColumnPtr in = longs({1, 2, 3, 10, 20});
  ColumnPtr def = longs({-1, -1, -1, -1, -1});
  WindowChunk chunk;
  chunk.length = 5;
  chunk.partition_starts = {0, 3, 5};
  chunk.peer_break.assign(5, 1);
  WindowCall lag;
  lag.kind = WindowCall::Kind::kLag;
  lag.offset = 1;
  lag.type = DataType::long_();
  functions::EvalContext ctx;
  ColumnPtr got = evaluate_window_call(lag, {in, def}, chunk, ctx);
  std::vector<int64_t> want = {-1, 1, 2, -1, 10};
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(got->values<int64_t>()[i], want[i]) << i;
  lag.kind = WindowCall::Kind::kLead;
  lag.offset = 2;
  got = evaluate_window_call(lag, {in, def}, chunk, ctx);
  want = {3, -1, -1, -1, -1};
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(got->values<int64_t>()[i], want[i]) << i;
}

TEST(DistinctAggregate, CountsEachDistinctRowOnceAcrossMergedStates) {
  const functions::FunctionDef* count = functions::Registry::instance().find("count");
  Config conf;
  functions::Signature sig = count->type_rule({DataType::long_()}, conf);
  functions::EvalContext ctx;
  auto fn = make_distinct_aggregate(count->aggregate(sig, ctx), {DataType::long_()});
  std::vector<uint8_t> a(32, 0), b(32, 0);
  fn->init(a.data());
  fn->init(b.data());
  ColumnPtr x = longs({1, 1, 2, std::nullopt}), y = longs({2, 3, 3, std::nullopt});
  std::vector<uint8_t*> pa(4, a.data()), pb(4, b.data());
  fn->update(pa.data(), {x}, 4);
  fn->update(pb.data(), {y}, 4);
  fn->merge(a.data(), b.data());
  ColumnBuilder out(DataType::long_());
  uint8_t* s = a.data();
  fn->finalize(&s, 1, out);
  EXPECT_EQ(out.finish()->values<int64_t>()[0], 3);  // 1, 2, 3; the null is not counted
  fn->destroy(a.data());
  fn->destroy(b.data());
}

TEST(DistinctAggregate, SeesDistinctRowsInOrderOfFirstOccurrence) {
  const functions::FunctionDef* collect = functions::Registry::instance().find("collect_list");
  Config conf;
  functions::Signature sig = collect->type_rule({DataType::long_()}, conf);
  functions::EvalContext ctx;
  auto fn = make_distinct_aggregate(collect->aggregate(sig, ctx), {DataType::long_()});
  std::vector<uint8_t> a(32, 0), b(32, 0);
  fn->init(a.data());
  fn->init(b.data());
  ColumnPtr x = longs({3, 1, 3, 5}), y = longs({2, 1, 4, 5});
  std::vector<uint8_t*> pa(4, a.data()), pb(4, b.data());
  fn->update(pa.data(), {x}, 4);
  fn->update(pb.data(), {y}, 4);
  fn->merge(a.data(), b.data());
  ColumnBuilder out(sig.result_type);
  uint8_t* s = a.data();
  fn->finalize(&s, 1, out);
  Value r = out.finish()->value_at(0);
  std::vector<int64_t> got;
  for (const Value& v : r.as_list()) got.push_back(v.as_int());
  EXPECT_EQ(got, (std::vector<int64_t>{3, 1, 5, 2, 4}));
  fn->destroy(a.data());
  fn->destroy(b.data());
}

}  // namespace
}  // namespace ember::exec
