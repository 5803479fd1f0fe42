#include "common/murmur3_128.h"

#include <gtest/gtest.h>

#include <string>

namespace ember {
namespace {

TEST(Murmur3x64128, ReferenceVectors) {
  Hash128 empty = murmur3_x64_128("", 0, 0);
  EXPECT_EQ(empty.h1, 0u);
  EXPECT_EQ(empty.h2, 0u);
  const std::string fox = "The quick brown fox jumps over the lazy dog";
  Hash128 h = murmur3_x64_128(fox.data(), fox.size(), 0);
  EXPECT_EQ(h.h1, 0xe34bbc7bbc071b6cULL);
  EXPECT_EQ(h.h2, 0x7a433ca9c49a9347ULL);
}

TEST(Murmur3x64128, TailLengthsDiffer) {
  // Every tail length (0..15 bytes past a block) takes its own path through the tail mixing.
  const std::string data = "0123456789abcdefghijklmnopqrstuv";
  Hash128 prev = murmur3_x64_128(data.data(), 0, 9001);
  for (size_t n = 1; n <= data.size(); ++n) {
    Hash128 h = murmur3_x64_128(data.data(), n, 9001);
    EXPECT_FALSE(h.h1 == prev.h1 && h.h2 == prev.h2) << n;
    prev = h;
  }
}

}  // namespace
}  // namespace ember
