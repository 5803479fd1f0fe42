// Theta and tuple sketches: DataSketches' hashes and serialized images (values Spark produces),
// exact counting below the nominal size, the estimate's error bound above it, round trips of
// every serialized form, and results independent of how updates are split and merged.

#include "functions/sketch_theta.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "functions/sketch_tuple.h"

namespace ember::functions::sketch {
namespace {

std::string hex(const std::string& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (unsigned char c : b) {
    s.push_back(d[c >> 4]);
    s.push_back(d[c & 15]);
  }
  return s;
}

CompactTheta sketch_of(int64_t from, int64_t to, int lg_k = kDefaultLgNomEntries) {
  ThetaAccumulator acc(lg_k);
  for (int64_t v = from; v < to; ++v) acc.update_hash(hash_long(v));
  return acc.result();
}

CompactTheta round_trip(const CompactTheta& s) {
  CompactTheta r;
  uint8_t family = 0;
  EXPECT_EQ(read_theta(s.serialize(), r, family), ReadStatus::kOk);
  return r;
}

TEST(ThetaSketch, HashesAndImagesAsSpark) {
  EXPECT_EQ(seed_hash(), 0x93cc);
  EXPECT_EQ(hash_long(1), 0x05a186bdcb7df915ULL);
  EXPECT_EQ(hash_double(1.0), hash_double(1.0f));
  EXPECT_EQ(hash_double(-0.0), hash_double(0.0));
  EXPECT_EQ(hash_double(std::nan("1")), hash_double(-std::nan("2")));
  EXPECT_EQ(hash_bytes(""), 0u);
  const int32_t ints[] = {1, 0};
  EXPECT_EQ(hash_ints(ints, 2), hash_long(1));  // the same eight little-endian bytes
  // Images Spark returns for theta_sketch_agg over {}, {1} and {1, 2, 3}.
  EXPECT_EQ(hex(CompactTheta().serialize()), "01030300001e0000");
  EXPECT_EQ(hex(sketch_of(1, 2).serialize()), "01030300003acc9315f97dcbbd86a105");
  EXPECT_EQ(hex(sketch_of(1, 4).serialize()),
            "0104033e011acc930316861af72df7e4558fbe9c3477e9eaefb2e5966badaa3dc0");
}

TEST(ThetaSketch, ExactBelowNominalSize) {
  for (int lg : {4, 8, 12}) {
    const int64_t k = int64_t{1} << lg;
    CompactTheta s = sketch_of(0, k);
    EXPECT_FALSE(s.estimation_mode());
    EXPECT_EQ(s.estimate(), static_cast<double>(k));
    ThetaAccumulator dup(lg);
    for (int rep = 0; rep < 3; ++rep)
      for (int64_t v = 0; v < k; ++v) dup.update_hash(hash_long(v));
    EXPECT_EQ(dup.result().entries, s.entries);
    CompactTheta over = sketch_of(0, k + 1, lg);
    EXPECT_TRUE(over.estimation_mode());
    EXPECT_EQ(over.entries.size(), static_cast<size_t>(k));
  }
}

TEST(ThetaSketch, EstimateWithinErrorBound) {
  // Relative standard error of a theta sketch is about 1/sqrt(k); allow four of them.
  for (int lg : {6, 10, 12}) {
    const double k = std::ldexp(1.0, lg);
    for (int64_t n : {20000, 100000}) {
      std::mt19937_64 rng(static_cast<uint64_t>(lg * 1000 + n));
      ThetaAccumulator acc(lg);
      for (int64_t i = 0; i < n; ++i) acc.update_hash(hash_long(static_cast<int64_t>(rng())));
      const double e = acc.result().estimate();
      EXPECT_NEAR(e / static_cast<double>(n), 1.0, 4.0 / std::sqrt(k)) << lg << " " << n;
    }
  }
}

TEST(ThetaSketch, SerializationRoundTrip) {
  for (auto [from, to] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {5, 6}, {0, 3}, {0, 100}, {0, 50000}}) {
    CompactTheta s = sketch_of(from, to);
    CompactTheta r = round_trip(s);
    EXPECT_EQ(r.empty, s.empty);
    EXPECT_EQ(r.theta, s.theta);
    EXPECT_EQ(r.entries, s.entries);
    EXPECT_EQ(r.serialize(), s.serialize());
  }
  // Estimation mode with nothing retained: the plain form with theta.
  CompactTheta none;
  none.empty = false;
  none.theta = kMaxTheta / 4;
  std::string img = none.serialize();
  EXPECT_EQ(img.size(), 24u);
  CompactTheta r = round_trip(none);
  EXPECT_FALSE(r.empty);
  EXPECT_EQ(r.theta, none.theta);
  EXPECT_TRUE(r.entries.empty());
}

TEST(ThetaSketch, RejectsBadImages) {
  CompactTheta r;
  uint8_t family = 0;
  EXPECT_EQ(read_theta("\x01\x02", r, family), ReadStatus::kInvalid);
  std::string img = sketch_of(0, 100).serialize();
  EXPECT_EQ(read_theta(img.substr(0, img.size() - 3), r, family), ReadStatus::kInvalid);
  std::string other = img;
  other[6] ^= 1;  // seed hash
  EXPECT_EQ(read_theta(other, r, family), ReadStatus::kInvalid);
  other = img;
  other[2] = static_cast<char>(kFamilyTuple);
  EXPECT_EQ(read_theta(other, r, family), ReadStatus::kWrongFamily);
  EXPECT_EQ(family_name(family), "TUPLE");
}

TEST(ThetaSketch, MergeOrderDoesNotMatter) {
  // ((a u b) u c) = (a u (b u c)) = one sketch over everything, byte for byte.
  const int lg = 9;
  auto part = [&](int64_t from, int64_t to) {
    ThetaAccumulator a(lg);
    for (int64_t v = from; v < to; ++v) a.update_hash(hash_long(v * 7919 % 30011));
    return a;
  };
  ThetaAccumulator a = part(0, 5000), b = part(4000, 12000), c = part(11000, 30011);
  ThetaAccumulator left = a;
  left.merge(b);
  left.merge(c);
  ThetaAccumulator bc = b;
  bc.merge(c);
  ThetaAccumulator right = a;
  right.merge(bc);
  ThetaAccumulator whole = part(0, 30011);
  EXPECT_EQ(left.result().serialize(), whole.result().serialize());
  EXPECT_EQ(right.result().serialize(), whole.result().serialize());
  ThetaAccumulator via_sketches(lg);
  via_sketches.merge(c.result());
  via_sketches.merge(a.result());
  via_sketches.merge(b.result());
  EXPECT_EQ(via_sketches.result().serialize(), whole.result().serialize());
}

TEST(ThetaSketch, IntersectionAndDifference) {
  CompactTheta a = sketch_of(0, 10), b = sketch_of(5, 20);
  ThetaIntersection x;
  x.update(a);
  x.update(b);
  EXPECT_EQ(x.result().entries, sketch_of(5, 10).entries);
  EXPECT_EQ(theta_a_not_b(a, b).entries, sketch_of(0, 5).entries);
  EXPECT_TRUE(theta_a_not_b(a, a).empty);
  EXPECT_EQ(theta_a_not_b(a, CompactTheta()).entries, a.entries);
  ThetaIntersection disjoint;
  disjoint.update(sketch_of(0, 3));
  disjoint.update(sketch_of(3, 6));
  EXPECT_TRUE(disjoint.result().empty);
  EXPECT_TRUE(ThetaIntersection().result().empty);
}

TEST(TupleSketch, ImagesAsSpark) {
  // tuple_sketch_agg_integer over (1, 7), (2, 8), (3, 9): entries in hash table order.
  TupleTable<int32_t> t;
  for (int64_t k : {1, 2, 3}) t.update(hash_long(k), static_cast<int32_t>(k + 6), SummaryMode::kSum);
  EXPECT_EQ(hex(t.result().serialize()),
            "02030901000acc930300000000000000"
            "15f97dcbbd86a1050700000000ba40b3c1da06695d0900000000c397fc1281709d1e0800000000");
  TupleTable<double> d;
  d.update(hash_long(1), 1.5, SummaryMode::kSum);
  EXPECT_EQ(hex(d.result().serialize()), "01030901000acc9315f97dcbbd86a105000000000000f83f00");
  EXPECT_EQ(hex(TupleTable<double>().result().serialize()), "01030901000ecc93");
}

TEST(TupleSketch, SummaryModes) {
  auto one_key = [](SummaryMode m, std::initializer_list<int32_t> values) {
    TupleTable<int32_t> t;
    for (int32_t v : values) t.update(hash_long(1), v, m);
    return t.result().summaries.at(0);
  };
  EXPECT_EQ(one_key(SummaryMode::kSum, {7, 8}).value, 15);
  EXPECT_EQ(one_key(SummaryMode::kSum, {2147483647, 1}).value, -2147483647 - 1);  // wraps as Java
  EXPECT_EQ(one_key(SummaryMode::kMin, {7, 8}).value, 7);
  EXPECT_EQ(one_key(SummaryMode::kMax, {7, 8}).value, 8);
  EXPECT_EQ(one_key(SummaryMode::kAlwaysOne, {7, 8}).value, 1);
  EXPECT_EQ(one_key(SummaryMode::kMax, {7}).mode, SummaryMode::kMax);
  SummaryMode m;
  EXPECT_TRUE(parse_summary_mode("AlwaysOne", m));
  EXPECT_EQ(m, SummaryMode::kAlwaysOne);
  EXPECT_FALSE(parse_summary_mode("avg", m));
}

TEST(TupleSketch, RoundTripEstimateAndMerge) {
  const int lg = 8;
  TupleTable<double> all(lg), a(lg), b(lg);
  for (int64_t v = 0; v < 20000; ++v) {
    all.update(hash_long(v), 0.5, SummaryMode::kSum);
    (v % 2 ? a : b).update(hash_long(v), 0.5, SummaryMode::kSum);
  }
  CompactTuple<double> whole = all.result();
  EXPECT_EQ(whole.hashes.size(), size_t{1} << lg);
  CompactTuple<double> back;
  uint8_t family = 0;
  ASSERT_EQ(read_tuple<double>(whole.serialize(), back, family), ReadStatus::kOk);
  EXPECT_EQ(back.theta, whole.theta);
  EXPECT_EQ(back.hashes, whole.hashes);
  EXPECT_NEAR(back.estimate() / 20000.0, 1.0, 4.0 / 16.0);
  // The union of two halves keeps the same hashes below the same theta as one sketch.
  TupleTable<double> u(lg);
  u.merge(a.result(), SummaryMode::kSum);
  u.merge(b.result(), SummaryMode::kSum);
  CompactTuple<double> merged = u.result();
  EXPECT_EQ(merged.theta, whole.theta);
  std::vector<uint64_t> x = merged.hashes, y = whole.hashes;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  EXPECT_EQ(x, y);
  // A theta sketch image is not a tuple sketch.
  EXPECT_EQ(read_tuple<double>(sketch_of(0, 10).serialize(), back, family), ReadStatus::kWrongFamily);
}

TEST(TupleSketch, SetOperationsCombineSummaries) {
  TupleTable<int32_t> ta, tb;
  ta.update(hash_long(1), 7, SummaryMode::kSum);
  ta.update(hash_long(2), 8, SummaryMode::kSum);
  tb.update(hash_long(1), 5, SummaryMode::kSum);
  tb.update(hash_long(3), 6, SummaryMode::kSum);
  CompactTuple<int32_t> a = ta.result(), b = tb.result();
  TupleTable<int32_t> u;
  u.merge(a, SummaryMode::kMax);
  u.merge(b, SummaryMode::kMax);
  CompactTuple<int32_t> ur = u.result();
  ASSERT_EQ(ur.hashes.size(), 3u);
  EXPECT_EQ(ur.summaries[0].value, 7);  // key 1: max(7, 5) in a new max summary
  EXPECT_EQ(ur.summaries[0].mode, SummaryMode::kMax);
  TupleIntersection<int32_t> x(SummaryMode::kSum);
  x.update(a);
  x.update(b);
  ASSERT_EQ(x.result().hashes.size(), 1u);
  EXPECT_EQ(x.result().summaries[0].value, 12);
  std::vector<uint64_t> bh = b.hashes;
  std::sort(bh.begin(), bh.end());
  CompactTuple<int32_t> d = tuple_a_not_b(a, b.empty, b.theta, bh);
  ASSERT_EQ(d.hashes.size(), 1u);
  EXPECT_EQ(d.hashes[0], hash_long(2));
}

}  // namespace
}  // namespace ember::functions::sketch
