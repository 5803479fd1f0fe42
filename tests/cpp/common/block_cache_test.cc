#include "common/block_cache.h"

#include <gtest/gtest.h>

#include <cstring>

namespace ember {
namespace {

TEST(BlockCache, SizeClassesArePowersOfTwoFromTheMinimum) {
  EXPECT_EQ(BlockCache::block_size(1), BlockCache::kMinBlock);
  EXPECT_EQ(BlockCache::block_size(BlockCache::kMinBlock), BlockCache::kMinBlock);
  EXPECT_EQ(BlockCache::block_size(BlockCache::kMinBlock + 1), 2 * BlockCache::kMinBlock);
  EXPECT_EQ(BlockCache::block_size(size_t{3} << 20), size_t{4} << 20);
}

TEST(BlockCache, FreedBlocksAreHandedOutAgainAndGoBackWhenIdle) {
  BlockCache& cache = BlockCache::global();
  const size_t limit = cache.limit();
  cache.set_limit(size_t{64} << 20);
  cache.trim();
  const size_t in_use = cache.in_use();
  const size_t bytes = (size_t{1} << 20) + 5;  // a 2 MiB block
  void* a = cache.allocate(bytes);
  std::memset(a, 7, bytes);
  EXPECT_EQ(cache.in_use(), in_use + (size_t{2} << 20));
  cache.free(a, bytes);
  EXPECT_EQ(cache.cached(), size_t{2} << 20);
  // The same size class takes the kept block; its bytes are as they were left.
  void* b = cache.allocate(size_t{2} << 20);
  EXPECT_EQ(a, b);
  EXPECT_EQ(static_cast<unsigned char*>(b)[100], 7);
  EXPECT_EQ(cache.cached(), 0u);
  cache.free(b, size_t{2} << 20);
  // A block kept through a whole round without being taken goes back at the next round.
  cache.release_idle();
  EXPECT_EQ(cache.cached(), size_t{2} << 20);
  cache.release_idle();
  EXPECT_EQ(cache.cached(), 0u);
  cache.set_limit(limit);
}

TEST(BlockCache, KeepsNoMoreThanItsLimit) {
  BlockCache& cache = BlockCache::global();
  const size_t limit = cache.limit();
  cache.trim();
  cache.set_limit(size_t{1} << 20);
  void* a = cache.allocate(size_t{1} << 20);
  void* b = cache.allocate(size_t{1} << 20);
  cache.free(a, size_t{1} << 20);
  cache.free(b, size_t{1} << 20);
  EXPECT_EQ(cache.cached(), size_t{1} << 20);
  cache.set_limit(0);
  EXPECT_EQ(cache.cached(), 0u);
  cache.set_limit(limit);
}

TEST(BlockCache, ALargerKeptBlockIsSplitAndANewMappingGivesBackSmallerOnes) {
  BlockCache& cache = BlockCache::global();
  const size_t limit = cache.limit();
  cache.set_limit(size_t{64} << 20);
  cache.trim();
  const size_t mib = size_t{1} << 20;
  auto* big = static_cast<char*>(cache.allocate(4 * mib));
  cache.free(big, 4 * mib);
  // A 1 MiB block is the first quarter of the kept 4 MiB; its halves (1 and 2 MiB) stay kept.
  auto* a = static_cast<char*>(cache.allocate(mib));
  EXPECT_EQ(a, big);
  EXPECT_EQ(cache.cached(), 3 * mib);
  auto* b = static_cast<char*>(cache.allocate(mib));
  EXPECT_EQ(b, big + mib);
  auto* c = static_cast<char*>(cache.allocate(2 * mib));
  EXPECT_EQ(c, big + 2 * mib);
  EXPECT_EQ(cache.cached(), 0u);
  std::memset(a, 1, mib);
  std::memset(c, 2, 2 * mib);
  cache.free(a, mib);
  cache.free(b, mib);
  cache.free(c, 2 * mib);
  EXPECT_EQ(cache.cached(), 4 * mib);
  // No kept block holds 8 MiB: the new mapping gives back the kept 4 MiB.
  void* d = cache.allocate(8 * mib);
  EXPECT_EQ(cache.cached(), 0u);
  cache.free(d, 8 * mib);
  cache.trim();
  cache.set_limit(limit);
}

TEST(BlockCache, SmallRequestsAreNotCached) {
  BlockCache& cache = BlockCache::global();
  cache.trim();
  void* p = cache.allocate(100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  cache.free(p, 100);
  EXPECT_EQ(cache.cached(), 0u);
}

}  // namespace
}  // namespace ember
