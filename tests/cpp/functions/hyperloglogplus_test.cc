// HyperLogLog++ registers and estimates: exact below the first collisions, within the
// theoretical error (1.04 / sqrt(m)) for large cardinalities, and merging is a register-wise
// maximum that gives the sketch of the union whatever the split.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "functions/digest.h"
#include "functions/hyperloglogplus.h"

namespace ember::functions::hllpp {
namespace {

uint64_t hash_of(int64_t v) { return static_cast<uint64_t>(digest::xxh64_long(v, 42)); }

TEST(HyperLogLogPlusPlus, PrecisionFromRelativeError) {
  EXPECT_EQ(precision_for(0.05), 9);
  EXPECT_EQ(precision_for(0.01), 14);
  EXPECT_EQ(precision_for(0.39), 4);
  EXPECT_EQ(precision_for(0.5), 3);
}

TEST(HyperLogLogPlusPlus, SmallCardinalitiesUseLinearCounting) {
  HyperLogLogPlusPlus h(9);
  EXPECT_EQ(h.estimate(), 0);
  for (int64_t v = 0; v < 50; ++v) {
    h.add_hash(hash_of(v));
    h.add_hash(hash_of(v));  // duplicates change nothing
  }
  double zeros = 0;
  for (uint8_t r : h.registers()) zeros += r == 0 ? 1 : 0;
  const double m = 512;
  EXPECT_EQ(h.estimate(), static_cast<int64_t>(std::floor(m * std::log(m / zeros) + 0.5)));
  EXPECT_NEAR(static_cast<double>(h.estimate()), 50, 5);
}

TEST(HyperLogLogPlusPlus, LargeWithinError) {
  for (int p : {9, 12, 14}) {
    HyperLogLogPlusPlus h(p);
    const int64_t n = 200000;
    for (int64_t v = 0; v < n; ++v) h.add_hash(hash_of(v));
    double rsd = 1.04 / std::sqrt(static_cast<double>(h.num_registers()));
    EXPECT_NEAR(static_cast<double>(h.estimate()), static_cast<double>(n), 4 * rsd * static_cast<double>(n)) << p;
  }
}

TEST(HyperLogLogPlusPlus, MergeEqualsSequential) {
  HyperLogLogPlusPlus all(11), a(11), b(11);
  for (int64_t v = 0; v < 30000; ++v) {
    all.add_hash(hash_of(v));
    (v % 3 == 0 ? a : b).add_hash(hash_of(v));
  }
  HyperLogLogPlusPlus ab = a;
  ab.merge(b);
  HyperLogLogPlusPlus ba = b;
  ba.merge(a);
  EXPECT_EQ(ab.registers(), all.registers());
  EXPECT_EQ(ba.registers(), all.registers());
  EXPECT_EQ(ab.estimate(), all.estimate());
}

TEST(HyperLogLogPlusPlus, RankIsBoundedByPrecision) {
  // A hash whose bits past the address are all zero gets the largest rank, 64 - p + 1.
  HyperLogLogPlusPlus h(4);
  h.add_hash(0);
  EXPECT_EQ(h.registers()[0], 61);
}

}  // namespace
}  // namespace ember::functions::hllpp
