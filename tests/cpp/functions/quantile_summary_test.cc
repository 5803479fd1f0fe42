// QuantileSummary (functions/quantile_summary.h), Spark's QuantileSummaries: the head buffer and
// when it compresses, the merge's widening of interleaved samples, and summaries of partitions
// merged in partition order giving the answers Spark 4.3 gives for the same partitions.

#include "functions/quantile_summary.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ember::functions {
namespace {

using Sample = QuantileSummary::Sample;

QuantileSummary summary_of(const std::vector<double>& values, double error) {
  QuantileSummary s(error);
  for (double v : values) s.insert(v);
  s.compress();
  return s;
}

TEST(QuantileSummaryTest, SmallInputsAreExact) {
  std::vector<double> x;
  for (int i = 0; i < 2000; ++i) x.push_back((i * 7919) % 2000);
  QuantileSummary s = summary_of(x, 1e-4);
  EXPECT_EQ(s.count(), 2000);
  EXPECT_EQ(s.query({1.0, 0.5, 0.0, 0.25}), (std::vector<double>{1999, 999, 0, 499}));
}

TEST(QuantileSummaryTest, HeadMovesIntoTheSamplesEvery50000Values) {
  QuantileSummary s(0.01);
  for (int i = 0; i < 49999; ++i) s.insert(i);
  EXPECT_EQ(s.count(), 0);
  EXPECT_EQ(s.head().size(), 49999u);
  EXPECT_FALSE(s.compressed());
  // The 50000th value moves the head; 50000 samples are over the compression threshold.
  s.insert(49999);
  EXPECT_EQ(s.count(), 50000);
  EXPECT_TRUE(s.head().empty());
  EXPECT_TRUE(s.compressed());
  EXPECT_EQ(s.samples().size(), 201u);
  EXPECT_EQ(s.samples()[1], (Sample{899, 899, 18}));
  // Another value only joins the head.
  s.insert(-1);
  EXPECT_FALSE(s.compressed());
  EXPECT_EQ(s.head().size(), 1u);
}

TEST(QuantileSummaryTest, NewSamplesAreUncertainExceptAtTheEnds) {
  // Without compression: each new sample has delta floor(2 eps n), the minimum and the last
  // maximum 0.
  QuantileSummary s(0.25);
  for (double v : {30.0, 10.0, 40.0, 20.0}) s.insert(v);
  s.compress();
  EXPECT_EQ(s.samples(), (std::vector<Sample>{{10, 1, 0}, {20, 1, 1}, {30, 1, 1}, {40, 1, 0}}));
}

TEST(QuantileSummaryTest, MergeWidensSamplesInsideTheOtherSidesRange) {
  QuantileSummary a = summary_of({0, 100}, 0.25);
  QuantileSummary b = summary_of({10, 20, 30, 40}, 0.25);
  // b's samples fall after a's first one: each gains floor(2 * 0.25 * 2) = 1. a's 100 comes
  // after all of b and is copied as it is; the result compresses under 2 * 0.25 * 6 = 3.
  a.merge(b);
  EXPECT_EQ(a.count(), 6);
  EXPECT_EQ(a.samples(),
            (std::vector<Sample>{{0, 1, 0}, {10, 1, 1}, {20, 1, 2}, {30, 1, 2}, {100, 2, 0}}));
}

TEST(QuantileSummaryTest, MergeWithAnEmptySideKeepsTheOther) {
  QuantileSummary empty(0.5);
  QuantileSummary s = summary_of({3, 1, 2}, 0.01);
  empty.merge(s);
  EXPECT_EQ(empty.relative_error(), 0.01);
  EXPECT_EQ(empty.samples(), s.samples());
  s.merge(QuantileSummary(0.5));
  EXPECT_EQ(s.relative_error(), 0.01);
  EXPECT_EQ(s.count(), 3);
}

TEST(QuantileSummaryTest, PartitionsMergedInOrderGiveSparksAnswers) {
  // SELECT percentile_approx(v, array(0.1, 0.25, 0.5, 0.75, 0.9), 100) over
  // spark.range(0, 300000, 1, k).select((id * 7919) % 100003 AS v), as Spark 4.3 answers it:
  // each partition's summary, compressed, merged into an empty one in partition order.
  const int64_t n = 300000;
  const std::vector<double> percentiles = {0.1, 0.25, 0.5, 0.75, 0.9};
  auto answer = [&](int64_t k) {
    QuantileSummary total(0.01);
    for (int64_t p = 0; p < k; ++p) {
      QuantileSummary part(0.01);
      for (int64_t i = p * n / k; i < (p + 1) * n / k; ++i)
        part.insert(static_cast<double>(i * 7919 % 100003));
      part.compress();
      total.merge(part);
    }
    return total.query(percentiles);
  };
  EXPECT_EQ(answer(1), (std::vector<double>{9272, 24070, 49804, 74917, 89481}));
  EXPECT_EQ(answer(4), (std::vector<double>{9273, 24077, 49887, 74417, 89269}));
  EXPECT_EQ(answer(7), (std::vector<double>{10494, 25108, 49613, 74324, 89068}));
}

}  // namespace
}  // namespace ember::functions
