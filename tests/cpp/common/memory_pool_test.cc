// MemoryPool::reallocate: contents kept, 64-byte alignment kept, and the pool's accounting equal
// to the bytes it holds after every grow and shrink.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/memory.h"

namespace ember {
namespace {

TEST(MemoryPoolTest, ReallocateKeepsContentsAlignmentAndAccounting) {
  MemoryPool pool("test.realloc");
  // Sizes across the allocator's small, large and mapped blocks, growing and shrinking.
  const std::vector<size_t> sizes = {100, 5000, 64, 1 << 20, 3000, 40u << 20, 70000, 1, 0, 4096};
  size_t size = 10;
  auto* p = static_cast<uint8_t*>(pool.allocate(size));
  for (size_t i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(i * 7);
  auto rounded = [](size_t n) { return static_cast<int64_t>((n == 0 ? 64 : (n + 63) / 64 * 64)); };
  EXPECT_EQ(pool.used(), rounded(size));
  for (size_t next : sizes) {
    p = static_cast<uint8_t*>(pool.reallocate(p, size, next));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << next;
    for (size_t i = 0; i < std::min(size, next); ++i) ASSERT_EQ(p[i], static_cast<uint8_t>(i * 7)) << next << " " << i;
    for (size_t i = std::min(size, next); i < next; ++i) p[i] = static_cast<uint8_t>(i * 7);
    size = next;
    EXPECT_EQ(pool.used(), rounded(size)) << next;
  }
  pool.free(p, size);
  EXPECT_EQ(pool.used(), 0);
}

}  // namespace
}  // namespace ember
