// KLL sketches read from DataSketches' serialized form: the empty, single-item and multi-level
// layouts, exact ranks and quantiles while nothing was compacted, weights 2^level above, the
// true extremes at the ends of the sorted view, and rejection of malformed bytes. Then the
// builder: the exact layout while n <= k, the level structure and rank error after
// compactions, serialization round trips, merges (also of sketches with different k) and the
// summary text.

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "functions/sketch_kll.h"

namespace ember::functions::kll {
namespace {

template <typename V>
void put(std::string& s, V v) {
  char b[sizeof(V)];
  std::memcpy(b, &v, sizeof(V));
  s.append(b, sizeof(V));
}

/// A full (five preamble ints) serialized sketch with k = 200 and the given level offsets.
std::string full_sketch(int64_t n, const std::vector<uint32_t>& levels, int64_t min, int64_t max,
                        const std::vector<int64_t>& items) {
  std::string s;
  s += std::string("\x05\x01\x0f\x00", 4);
  put<uint16_t>(s, 200);
  s += std::string("\x08\x00", 2);
  put<int64_t>(s, n);
  put<uint16_t>(s, 200);
  s.push_back(static_cast<char>(levels.size()));
  s.push_back(0);
  for (uint32_t l : levels) put<uint32_t>(s, l);
  put<int64_t>(s, min);
  put<int64_t>(s, max);
  for (int64_t v : items) put<int64_t>(s, v);
  return s;
}

TEST(KllSketch, EmptyAndSingle) {
  auto empty = KllSketch<double>::deserialize(std::string("\x02\x01\x0f\x01\xc8\x00\x08\x00", 8));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  std::string one("\x02\x02\x0f\x04\xc8\x00\x08\x00", 8);
  put<int64_t>(one, 42);
  auto single = KllSketch<int64_t>::deserialize(one);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->n(), 1);
  EXPECT_EQ(single->quantile(0.0), 42);
  EXPECT_EQ(single->quantile(1.0), 42);
  EXPECT_DOUBLE_EQ(single->rank(41), 0.0);
  EXPECT_DOUBLE_EQ(single->rank(42), 1.0);
}

TEST(KllSketch, ExactBelowFirstCompaction) {
  // Ten items 0..9 inserted in order sit at offsets 190..199, the latest first.
  std::vector<int64_t> items;
  for (int64_t v = 9; v >= 0; --v) items.push_back(v);
  auto s = KllSketch<int64_t>::deserialize(full_sketch(10, {190}, 0, 9, items));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->n(), 10);
  EXPECT_EQ(s->quantile(0.0), 0);
  EXPECT_EQ(s->quantile(0.25), 2);
  EXPECT_EQ(s->quantile(0.5), 4);
  EXPECT_EQ(s->quantile(0.7), 6);  // 0.7 * 10 is 7 after rounding, not 7.000000000000001
  EXPECT_EQ(s->quantile(1.0), 9);
  EXPECT_DOUBLE_EQ(s->rank(-1), 0.0);
  EXPECT_DOUBLE_EQ(s->rank(3), 0.4);
  EXPECT_DOUBLE_EQ(s->rank(100), 1.0);
}

TEST(KllSketch, LevelsWeighItemsAndKeepExtremes) {
  // Level 0 holds 5 and 6 (weight 1), level 1 holds 2 and 8 (weight 2): n = 6. The minimum 0
  // was compacted away, so the view starts with it at cumulative weight 1. Two levels of k = 200
  // have 333 slots.
  auto s = KllSketch<int64_t>::deserialize(full_sketch(6, {329, 331}, 0, 8, {5, 6, 2, 8}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->quantile(0.0), 0);
  EXPECT_DOUBLE_EQ(s->rank(0), 1.0 / 6);
  EXPECT_DOUBLE_EQ(s->rank(2), 2.0 / 6);
  EXPECT_DOUBLE_EQ(s->rank(5), 3.0 / 6);
  EXPECT_DOUBLE_EQ(s->rank(8), 1.0);
  EXPECT_EQ(s->quantile(0.5), 5);
  EXPECT_EQ(s->quantile(1.0), 8);
}

TEST(KllSketch, RejectsMalformedBytes) {
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(std::string("\x01\x02", 2)));
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(std::string("\x02\x01\x07\x01\xc8\x00\x08\x00", 8)));
  // Weights that do not add up to n.
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(full_sketch(7, {329, 331}, 0, 8, {5, 6, 2, 8})));
  // A truncated item.
  std::string cut = full_sketch(2, {198}, 1, 2, {2, 1});
  cut.pop_back();
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(cut));
}

std::string hex(const std::string& b) {
  static const char* digits = "0123456789abcdef";
  std::string h;
  for (unsigned char c : b) {
    h += digits[c >> 4];
    h += digits[c & 15];
  }
  return h;
}

TEST(KllBuilder, ExactLayoutsBelowK) {
  KllSketch<int64_t> s;
  EXPECT_EQ(hex(s.serialize()), "02010f01c8000800");
  s.update(0);
  EXPECT_EQ(hex(s.serialize()), "02020f04c80008000000000000000000");
  for (int64_t v = 1; v < 5; ++v) s.update(v);
  // Five preamble ints, one level starting at 195, min 0, max 4, then the latest item first.
  EXPECT_EQ(hex(s.serialize()),
            "05010f00c80008000500000000000000c8000100c30000000000000000000000040000000000000004000000000000000300"
            "000000000000020000000000000001000000000000000000000000000000");
  KllSketch<float> f;
  for (int v = 0; v < 5; ++v) f.update(static_cast<float>(v));
  f.update(std::nanf(""));
  EXPECT_EQ(f.n(), 5);
  EXPECT_EQ(hex(f.serialize()),
            "05010f00c80008000500000000000000c8000100c300000000000000000080400000804000004040000000400000803f00000000");
}

TEST(KllBuilder, FirstCompactionPromotesEveryOtherItem) {
  KllSketch<int64_t> s(8);
  for (int64_t v = 0; v < 9; ++v) s.update(v);
  EXPECT_EQ(s.num_levels(), 2);
  EXPECT_EQ(s.capacity(), 16u);
  EXPECT_EQ(s.retained(), 5u);
  EXPECT_EQ(s.min_item(), 0);
  EXPECT_EQ(s.max_item(), 8);
  // Level 1 keeps either the even or the odd items of 0..7 with weight 2.
  const int64_t low = s.quantile(0.0 + 1e-9);
  EXPECT_TRUE(low == 0);
  const double r = s.rank(1);
  EXPECT_TRUE(r == 2.0 / 9 || r == 1.0 / 9 || r == 3.0 / 9) << r;
}

TEST(KllBuilder, StructureAfterCompactionsIsDeterministic) {
  // The level sizes depend on counts only; these are Spark's for 1000 values with k = 20.
  KllSketch<double> s(20);
  for (int v = 0; v < 1000; ++v) s.update(v);
  EXPECT_EQ(s.num_levels(), 6);
  EXPECT_EQ(s.capacity(), 66u);
  EXPECT_EQ(s.retained(), 58u);
  EXPECT_EQ(s.summary(),
            "\n### KllKllDoublesSketch Summary:\n"
            "   K                      : 20\n"
            "   Dynamic min K          : 20\n"
            "   M                      : 8\n"
            "   N                      : 1000\n"
            "   Epsilon                : 12.473%\n"
            "   Epsilon PMF            : 14.494%\n"
            "   Empty                  : false\n"
            "   Estimation Mode        : true\n"
            "   Levels                 : 6\n"
            "   Level 0 Sorted         : false\n"
            "   Capacity Items         : 66\n"
            "   Retained Items         : 58\n"
            "   Free Space             : 8\n"
            "   ReadOnly               : false\n"
            "   Updatable Storage Bytes: 592\n"
            "   Compact Storage Bytes  : 524\n"
            "   Min Item               : 0.0\n"
            "   Max Item               : 999.0\n"
            "### End sketch summary\n");
  KllSketch<int64_t> big(8);
  for (int64_t v = 0; v < 1000000; ++v) big.update(v);
  EXPECT_EQ(big.num_levels(), 16);
  EXPECT_EQ(big.capacity(), 128u);
  EXPECT_EQ(big.retained(), 128u);
}

/// The largest distance between a quantile's true normalized rank and the asked one, over
/// ranks 0, 0.01, ..., 1, for a sketch of the values 0 .. n - 1.
template <typename T>
double worst_rank_error(const KllSketch<T>& s, int64_t n) {
  double worst = 0;
  for (int i = 0; i <= 100; ++i) {
    const double r = i / 100.0;
    const double got = static_cast<double>(s.quantile(r)) / static_cast<double>(n);
    worst = std::max(worst, std::fabs(got - r));
  }
  return worst;
}

TEST(KllBuilder, RankErrorAboveK) {
  // k = 200 has a normalized rank error of 1.33% (99% confidence); 2.5 times that is a bound a
  // correct sketch essentially never crosses.
  const int64_t n = 200000;
  std::vector<int64_t> values(n);
  std::iota(values.begin(), values.end(), 0);
  std::mt19937_64 gen(7);
  std::shuffle(values.begin(), values.end(), gen);
  KllSketch<int64_t> s;
  for (int64_t v : values) s.update(v);
  EXPECT_EQ(s.n(), n);
  EXPECT_EQ(s.min_item(), 0);
  EXPECT_EQ(s.max_item(), n - 1);
  EXPECT_TRUE(s.estimation_mode());
  EXPECT_LT(worst_rank_error(s, n), 0.033);
  EXPECT_EQ(s.quantile(0.0), 0);
  EXPECT_EQ(s.quantile(1.0), n - 1);
}

TEST(KllBuilder, SerializationRoundTrip) {
  for (int count : {0, 1, 7, 200, 201, 5000}) {
    KllSketch<double> s(50);
    for (int v = 0; v < count; ++v) s.update(std::sin(v) * 1000);
    const std::string bytes = s.serialize();
    auto back = KllSketch<double>::deserialize(bytes);
    ASSERT_TRUE(back) << count;
    EXPECT_EQ(back->serialize(), bytes) << count;
    EXPECT_EQ(back->n(), count);
    EXPECT_EQ(back->summary(), s.summary());
    if (count > 0) {
      EXPECT_EQ(back->quantile(0.5), s.quantile(0.5));
      EXPECT_EQ(back->rank(0.0), s.rank(0.0));
    }
  }
}

TEST(KllBuilder, MergeIsExactBelowKAndBoundedAbove) {
  KllSketch<int64_t> a, b;
  for (int64_t v = 0; v < 3; ++v) a.update(v);
  b.update(7);
  KllSketch<int64_t> ab = a;
  ab.merge(b);
  // Spark's bytes for the same merge: b's items follow a's, below them.
  EXPECT_EQ(hex(ab.serialize()),
            "05010f00c80008000400000000000000c8000100c4000000000000000000000007000000000000000700000000000000020000"
            "000000000001000000000000000000000000000000");
  const int64_t n = 100000;
  KllSketch<int64_t> low, high;
  for (int64_t v = 0; v < n / 2; ++v) low.update(v);
  for (int64_t v = n / 2; v < n; ++v) high.update(v);
  low.merge(high);
  EXPECT_EQ(low.n(), n);
  EXPECT_EQ(low.min_item(), 0);
  EXPECT_EQ(low.max_item(), n - 1);
  EXPECT_LT(worst_rank_error(low, n), 0.033);
  auto back = KllSketch<int64_t>::deserialize(low.serialize());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->n(), n);
}

TEST(KllBuilder, MergeOfDifferentK) {
  // Spark: a (k 200, 50 exact items) merged with b (k 20, 50 items, compacted) keeps k 200, and
  // the dynamic minimum k drops to 20; the other way round keeps k 20.
  KllSketch<int64_t> a, b(20);
  for (int64_t v = 0; v < 50; ++v) {
    a.update(v);
    b.update(v + 100);
  }
  EXPECT_EQ(b.num_levels(), 2);
  EXPECT_EQ(b.retained(), 29u);
  KllSketch<int64_t> ab = a;
  ab.merge(b);
  EXPECT_EQ(ab.k(), 200);
  EXPECT_EQ(ab.min_k(), 20);
  EXPECT_EQ(ab.n(), 100);
  EXPECT_EQ(ab.num_levels(), 2);
  EXPECT_EQ(ab.capacity(), 333u);
  EXPECT_EQ(ab.retained(), 79u);
  KllSketch<int64_t> ba = b;
  ba.merge(a);
  EXPECT_EQ(ba.k(), 20);
  EXPECT_EQ(ba.min_k(), 20);
  EXPECT_EQ(ba.num_levels(), 3);
  EXPECT_EQ(ba.capacity(), 42u);
  EXPECT_EQ(ba.retained(), 34u);
  EXPECT_EQ(ba.min_item(), 0);
  EXPECT_EQ(ba.max_item(), 149);
  // Merging an exact sketch keeps the dynamic minimum.
  KllSketch<int64_t> c(50);
  c.merge(a);
  EXPECT_EQ(c.min_k(), 50);
  EXPECT_EQ(c.n(), 50);
}

TEST(KllBuilder, SignedZerosOrderLikeJava) {
  KllSketch<double> s;
  s.update(0.0);
  s.update(-0.0);
  EXPECT_TRUE(std::signbit(s.min_item()));
  EXPECT_FALSE(std::signbit(s.max_item()));
}

}  // namespace
}  // namespace ember::functions::kll
