// DataSketches HLL sketches: coupons and images as Spark produces them, the LIST -> SET -> HLL
// transitions, HIP and composite estimates (values Spark reports), round trips of every image
// form, unions of equal and different lgConfigK, and the estimate's error bound.

#include "functions/sketch_hll.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

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

std::string unhex(const std::string& h) {
  std::string b;
  for (size_t i = 0; i + 1 < h.size(); i += 2) b.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return b;
}

HllSketch sketch_of(int64_t from, int64_t to, int lg_k = kHllDefaultLgK) {
  HllSketch s(lg_k);
  for (int64_t v = from; v < to; ++v) s.update(hll_coupon_long(v));
  return s;
}

HllSketch round_trip(const HllSketch& s) {
  HllSketch r;
  EXPECT_TRUE(HllSketch::deserialize(s.serialize(), r));
  return r;
}

HllSketch merged(const HllSketch& a, const HllSketch& b, int lg_max_k) {
  HllUnion u(lg_max_k);
  u.update(a);
  u.update(b);
  return u.result();
}

int64_t rounded(double e) { return static_cast<int64_t>(std::floor(e + 0.5)); }

TEST(HllSketch, CouponsOfLongsAndBytes) {
  // Slot address in the low 26 bits, 1 + leading zeros of the second hash half above.
  EXPECT_EQ(hll_coupon_long(1), 0x06fbf22bu);
  EXPECT_EQ(hll_coupon_long(2), 0x0df92f86u);
  EXPECT_EQ(hll_coupon_long(3), 0x07668175u);
  EXPECT_EQ(hll_coupon_bytes(""), 0u);
  EXPECT_NE(hll_coupon_bytes("a"), 0u);
  EXPECT_EQ(hll_coupon_bytes(std::string("\x01\x00\x00\x00\x00\x00\x00\x00", 8)), hll_coupon_long(1));
}

TEST(HllSketch, ListImageMatchesSpark) {
  HllSketch s(12);
  for (int64_t v : {1, 2, 2, 3}) s.update(hll_coupon_long(v));
  EXPECT_EQ(s.mode(), HllMode::kList);
  EXPECT_EQ(hex(s.serialize()), "0201070c030003082bf2fb06862ff90d758166070000000000000000000000000000000000000000");
  EXPECT_EQ(hex(HllSketch(10).serialize()),
            "0201070a030400080000000000000000000000000000000000000000000000000000000000000000");
  EXPECT_TRUE(HllSketch(10).empty());
  EXPECT_EQ(HllSketch(10).estimate(), 0.0);
  EXPECT_EQ(rounded(s.estimate()), 3);
}

TEST(HllSketch, ModeTransitions) {
  // lgConfigK 12: 8 coupons fill the LIST, the SET grows from 32 entries to K/8 = 512 and is
  // promoted past three quarters of that.
  EXPECT_EQ(sketch_of(0, 7).mode(), HllMode::kList);
  EXPECT_EQ(sketch_of(0, 8).mode(), HllMode::kSet);
  EXPECT_EQ(sketch_of(0, 384).mode(), HllMode::kSet);
  EXPECT_EQ(sketch_of(0, 384).coupon_count(), 384);
  EXPECT_EQ(sketch_of(0, 385).mode(), HllMode::kHll);
  // Below lgConfigK 8 the LIST goes straight to registers.
  EXPECT_EQ(sketch_of(0, 8, 7).mode(), HllMode::kHll);
  EXPECT_EQ(sketch_of(0, 7, 7).mode(), HllMode::kList);
  // lgConfigK 8: the SET never grows (K/8 = 32) and is promoted at its 25th coupon.
  EXPECT_EQ(sketch_of(0, 24, 8).mode(), HllMode::kSet);
  EXPECT_EQ(sketch_of(0, 25, 8).mode(), HllMode::kHll);
  // Repeated values change nothing.
  HllSketch a = sketch_of(0, 100), b = sketch_of(0, 100);
  for (int64_t v = 0; v < 100; ++v) b.update(hll_coupon_long(v));
  EXPECT_EQ(a.serialize(), b.serialize());
}

TEST(HllSketch, PromotionCarriesTheSetEstimate) {
  // The preamble Spark writes for 0..384 (one partition): HIP accumulator, kxq0, kxq1, zeros.
  const std::string image = sketch_of(0, 385).serialize();
  EXPECT_EQ(image.size(), 40u + 4096u);
  EXPECT_EQ(hex(image.substr(0, 40)),
            "0a01070c0000000a9d1b00810110784000000000161fae400000000000000000930e000000000000");
}

TEST(HllSketch, HipAndCompositeEstimatesMatchSpark) {
  // Spark's estimates for 0..999: one partition (HIP), two partitions in HLL mode (composite),
  // four partitions in SET mode replayed into a union that reaches HLL mode (HIP again).
  EXPECT_EQ(rounded(sketch_of(0, 1000).estimate()), 996);
  HllSketch u = merged(sketch_of(0, 500), sketch_of(500, 1000), 12);
  EXPECT_TRUE(u.out_of_order());
  EXPECT_EQ(rounded(u.estimate()), 988);
  EXPECT_EQ(u.estimate(), u.composite_estimate());
  HllSketch q(12);
  for (int k = 0; k < 4; ++k) q = merged(q, sketch_of(250 * k, 250 * (k + 1)), 12);
  EXPECT_FALSE(q.out_of_order());
  EXPECT_EQ(rounded(q.estimate()), 990);
}

TEST(HllSketch, EstimateErrorBound) {
  // Relative standard error about 1.04 / sqrt(K); allow three of them.
  for (int lg : {8, 12, 16}) {
    const double bound = 3 * 1.04 / std::sqrt(static_cast<double>(1 << lg));
    for (int64_t n : {1000, 100000, 300000}) {
      HllSketch s = sketch_of(0, n, lg);
      EXPECT_LT(std::abs(s.estimate() / n - 1), bound) << "lg " << lg << " n " << n;
      HllSketch m = merged(sketch_of(0, n / 2, lg), sketch_of(n / 2, n, lg), lg);
      EXPECT_LT(std::abs(m.estimate() / n - 1), bound) << "merged, lg " << lg << " n " << n;
    }
  }
}

TEST(HllSketch, RoundTripEveryMode) {
  for (int lg : {4, 7, 8, 12, 21}) {
    for (int64_t n : {0, 1, 7, 8, 9, 30, 400, 5000}) {
      HllSketch s = sketch_of(0, n, lg);
      HllSketch r = round_trip(s);
      EXPECT_EQ(r.serialize(), s.serialize()) << lg << " " << n;
      EXPECT_EQ(r.estimate(), s.estimate());
      EXPECT_EQ(r.mode(), s.mode());
    }
  }
}

TEST(HllSketch, RejectsInvalidImages) {
  HllSketch s;
  EXPECT_FALSE(HllSketch::deserialize("", s));
  EXPECT_FALSE(HllSketch::deserialize(unhex("0102"), s));
  std::string image = sketch_of(0, 3).serialize();
  std::string bad = image;
  bad[2] = 3;  // a theta sketch's family
  EXPECT_FALSE(HllSketch::deserialize(bad, s));
  bad = image;
  bad[3] = 3;  // lgConfigK below 4
  EXPECT_FALSE(HllSketch::deserialize(bad, s));
  bad = image;
  bad[3] = 22;
  EXPECT_FALSE(HllSketch::deserialize(bad, s));
  bad = image;
  bad[1] = 2;  // serial version
  EXPECT_FALSE(HllSketch::deserialize(bad, s));
  // Truncated register arrays.
  const std::string hll = sketch_of(0, 1000).serialize();
  EXPECT_FALSE(HllSketch::deserialize(hll.substr(0, hll.size() - 1), s));
  EXPECT_TRUE(HllSketch::deserialize(hll, s));
}

TEST(HllSketch, ReadsFourAndSixBitRegisterImages) {
  // 0..299 at lgConfigK 5 as the library writes HLL_4 (updatable and compact), HLL_6 and
  // HLL_8: the same registers and estimate.
  const char* images[] = {
      "0a0107050000010233e8f0a35d336f400000000000780b40000000000000000002000000000000003361374431043166133434512330234"
      "500000000000000000000000000000000",
      "0a0107050008010233e8f0a35d336f400000000000780b400000000000000000020000000000000033613744310431661334345123302345",
      "0a0107050000000633e8f0a35d336f400000000000780b400000000000000000000000000000000004211c08511402510402711c84501005"
      "2118c41010c4601400",
      "0a0107050000000a33e8f0a35d336f400000000000780b4000000000000000000000000000000000040402070804050502040501020407070"
      "4020504050402060403010404030605",
  };
  HllSketch expect = sketch_of(0, 300, 5);
  for (const char* h : images) {
    HllSketch s;
    ASSERT_TRUE(HllSketch::deserialize(unhex(h), s)) << h;
    EXPECT_EQ(s.registers(), expect.registers()) << h;
    EXPECT_EQ(rounded(s.estimate()), 250);
  }
}

TEST(HllUnion, ModesMeetAsTheLibraryMerges) {
  // LIST into LIST replays coupons in order; registers merge out of order (HIP cleared).
  HllSketch lists = merged(sketch_of(0, 3), sketch_of(2, 5), 12);
  EXPECT_EQ(lists.mode(), HllMode::kList);
  EXPECT_EQ(lists.serialize(), sketch_of(0, 5).serialize());
  HllSketch sets = merged(sketch_of(0, 100), sketch_of(50, 200), 12);
  EXPECT_EQ(sets.mode(), HllMode::kSet);
  EXPECT_EQ(sets.coupon_count(), 200);
  HllSketch regs = merged(sketch_of(0, 1000), sketch_of(500, 3000), 12);
  EXPECT_TRUE(regs.out_of_order());
  EXPECT_EQ(regs.registers(), merged(sketch_of(500, 3000), sketch_of(0, 1000), 12).registers());
  EXPECT_EQ(regs.registers(), sketch_of(0, 3000).registers());
  // An empty side changes nothing.
  HllSketch big = sketch_of(0, 3000);
  EXPECT_EQ(merged(HllSketch(12), big, 12).serialize(), big.serialize());
  EXPECT_EQ(merged(big, HllSketch(12), 12).serialize(), big.serialize());
}

TEST(HllUnion, DifferentLgConfigKFoldsToTheSmaller) {
  HllSketch a = sketch_of(0, 20000, 14), b = sketch_of(10000, 30000, 10);
  for (const HllSketch& u : {merged(a, b, 10), merged(b, a, 10)}) {
    EXPECT_EQ(u.lg_k(), 10);
    EXPECT_EQ(u.registers(), sketch_of(0, 30000, 10).registers());
  }
  // A larger sketch into a smaller union is downsampled.
  HllUnion u(8);
  u.update(sketch_of(0, 5000, 12));
  HllSketch r = u.result();
  EXPECT_EQ(r.lg_k(), 8);
  EXPECT_EQ(r.registers(), sketch_of(0, 5000, 8).registers());
  // Coupons carry 26 address bits: a LIST of any lgConfigK replays into any union.
  HllSketch l = merged(sketch_of(0, 5, 21), sketch_of(5, 10, 21), 4);
  EXPECT_EQ(l.lg_k(), 4);
  EXPECT_EQ(l.registers(), sketch_of(0, 10, 4).registers());
}

}  // namespace
}  // namespace ember::functions::sketch
