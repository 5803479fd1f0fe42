// KLL sketches read from DataSketches' serialized form: the empty, single-item and multi-level
// layouts, exact ranks and quantiles while nothing was compacted, weights 2^level above, the
// true extremes at the ends of the sorted view, and rejection of malformed bytes.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
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
  // was compacted away, so the view starts with it at cumulative weight 1.
  auto s = KllSketch<int64_t>::deserialize(full_sketch(6, {10, 12}, 0, 8, {5, 6, 2, 8}));
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
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(full_sketch(7, {10, 12}, 0, 8, {5, 6, 2, 8})));
  // A truncated item.
  std::string cut = full_sketch(2, {198}, 1, 2, {2, 1});
  cut.pop_back();
  EXPECT_FALSE(KllSketch<int64_t>::deserialize(cut));
}

}  // namespace
}  // namespace ember::functions::kll
