// CountMinSketch: the dimensions Spark derives from eps and confidence, the hash factors of
// java.util.Random, counts that never under-estimate, merging equal to building at once, and
// the version 1 serialization layout.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "functions/count_min_sketch.h"
#include "functions/java_random.h"

namespace ember::functions::cms {
namespace {

int64_t be_long(const std::string& s, size_t at) {
  uint64_t v = 0;
  for (size_t k = 0; k < 8; ++k) v = (v << 8) | static_cast<uint8_t>(s[at + k]);
  return static_cast<int64_t>(v);
}

TEST(CountMinSketch, Dimensions) {
  EXPECT_EQ(CountMinSketch::width_for(0.5), 4);
  EXPECT_EQ(CountMinSketch::width_for(3.0), 1);
  EXPECT_EQ(CountMinSketch::width_for(0.01), 200);
  EXPECT_EQ(CountMinSketch::depth_for(0.5), 1);
  EXPECT_EQ(CountMinSketch::depth_for(0.9), 4);
  EXPECT_EQ(CountMinSketch::depth_for(0.99), 7);
}

TEST(CountMinSketch, JavaRandomNextInt) {
  // java.util.Random(1).nextInt(Integer.MAX_VALUE) and (42).nextInt(10), as the JVM gives them.
  JavaRandom r(1);
  EXPECT_EQ(r.next_int(INT32_MAX), 0x5D8D6AB9);
  JavaRandom r42(42);
  EXPECT_EQ(r42.next_int(10), 0);
  EXPECT_EQ(r42.next_int(10), 3);
}

TEST(CountMinSketch, NeverUnderestimatesAndMerges) {
  CountMinSketch all(5, 64, 7), a(5, 64, 7), b(5, 64, 7);
  for (int64_t v = 0; v < 5000; ++v) {
    int64_t item = v % 300;
    all.add_long(item);
    (v % 2 ? a : b).add_long(item);
  }
  for (int64_t item = 0; item < 300; ++item) EXPECT_GE(all.estimate_long(item), 16);
  a.merge(b);
  EXPECT_EQ(a.serialize(), all.serialize());
  EXPECT_EQ(all.total_count(), 5000);
}

TEST(CountMinSketch, SerializedLayout) {
  CountMinSketch s(1, 1, 1);
  for (int64_t v = 0; v < 100; ++v) s.add_long(v);
  std::string bytes = s.serialize();
  ASSERT_EQ(bytes.size(), 4u + 8 + 4 + 4 + 8 + 8);
  EXPECT_EQ(bytes.substr(0, 4), std::string("\0\0\0\1", 4));
  EXPECT_EQ(be_long(bytes, 4), 100);
  EXPECT_EQ(be_long(bytes, 20), 0x5D8D6AB9);
  EXPECT_EQ(be_long(bytes, 28), 100);
}

}  // namespace
}  // namespace ember::functions::cms
