#include "common/block_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "common/error.h"

namespace ember {
namespace {

int class_of(size_t size) { return 63 - __builtin_clzll(size); }

size_t default_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  const size_t ram = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
  return std::min(ram / 4, size_t{8} << 30);
}

[[noreturn]] void out_of_memory(size_t bytes) {
  throw SparkError(ErrorKind::kRuntime, "UNABLE_TO_ACQUIRE_MEMORY",
                   "Out of host memory allocating " + std::to_string(bytes) + " bytes.");
}

constexpr size_t kHugePage = size_t{2} << 20;

/// A fresh mapping of `size` bytes (a power of two), or null. Blocks of a huge page or more are
/// aligned to one and asked to be backed by huge pages: the slot arrays and group storage they
/// hold are read at random, where 4 KiB pages cost a TLB miss (and a fault when new) per access.
void* map_block(size_t size) {
  if (size < kHugePage) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
  void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + size + kHugePage;
  if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, size, MADV_HUGEPAGE);
  return p;
}

}  // namespace

BlockCache::BlockCache() : limit_(default_limit()) {
  if (const char* env = std::getenv("EMBER_BLOCK_CACHE_BYTES")) limit_ = std::strtoull(env, nullptr, 10);
}

BlockCache& BlockCache::global() {
  static BlockCache* cache = new BlockCache();
  return *cache;
}

size_t BlockCache::block_size(size_t bytes) {
  if (bytes <= kMinBlock) return kMinBlock;
  return size_t{1} << (64 - __builtin_clzll(bytes - 1));
}

void* BlockCache::allocate(size_t bytes) {
  if (bytes < kMinBlock) {
    void* p = std::aligned_alloc(64, (std::max<size_t>(bytes, 1) + 63) / 64 * 64);
    if (p == nullptr) out_of_memory(bytes);
    return p;
  }
  const size_t size = block_size(bytes);
  const int c = class_of(size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ += size;
    // The smallest kept block that fits; a larger one is split in halves, the halves not
    // handed out kept (pieces of a mapping unmap on their own).
    for (int k = c; k < kClasses; ++k) {
      if (free_[k].empty()) continue;
      auto* p = static_cast<char*>(free_[k].back());
      free_[k].pop_back();
      idle_[k] = std::min(idle_[k], free_[k].size());
      for (int h = k - 1; h >= c; --h) free_[h].push_back(p + (size_t{1} << h));
      cached_ -= size;
      return p;
    }
    // A new mapping: give back as many kept (smaller) bytes, so that what the process maps in
    // all does not grow because blocks were kept in other sizes.
    size_t released = 0;
    for (int k = c - 1; k >= 0 && released < size; --k) {
      while (!free_[k].empty() && released < size) {
        munmap(free_[k].back(), size_t{1} << k);
        free_[k].pop_back();
        idle_[k] = std::min(idle_[k], free_[k].size());
        released += size_t{1} << k;
      }
    }
    cached_ -= released;
  }
  void* p = map_block(size);
  if (p == nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ -= size;
    out_of_memory(size);
  }
  return p;
}

void BlockCache::free(void* p, size_t bytes) {
  if (p == nullptr) return;
  if (bytes < kMinBlock) {
    std::free(p);
    return;
  }
  const size_t size = block_size(bytes);
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ -= size;
    if (cached_ + size <= limit_) {
      free_[class_of(size)].push_back(p);
      cached_ += size;
      return;
    }
  }
  munmap(p, size);
}

void BlockCache::set_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  limit_ = bytes;
  trim_to(bytes);
}

size_t BlockCache::limit() const {
  std::lock_guard<std::mutex> lock(mu_);
  return limit_;
}

size_t BlockCache::cached() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cached_;
}

size_t BlockCache::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

void BlockCache::trim() {
  std::lock_guard<std::mutex> lock(mu_);
  trim_to(0);
}

void BlockCache::release_idle() {
  std::lock_guard<std::mutex> lock(mu_);
  for (int c = 0; c < kClasses; ++c) {
    std::vector<void*>& blocks = free_[c];
    const size_t idle = std::min(idle_[c], blocks.size());
    for (size_t i = 0; i < idle; ++i) munmap(blocks[i], size_t{1} << c);
    blocks.erase(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(idle));
    cached_ -= idle << c;
    idle_[c] = blocks.size();
  }
}

void BlockCache::trim_to(size_t bytes) {
  // The largest blocks go first: they give back the most for the fewest unmaps.
  for (int c = kClasses - 1; c >= 0 && cached_ > bytes; --c) {
    while (!free_[c].empty() && cached_ > bytes) {
      munmap(free_[c].back(), size_t{1} << c);
      free_[c].pop_back();
      idle_[c] = std::min(idle_[c], free_[c].size());
      cached_ -= size_t{1} << c;
    }
  }
}

}  // namespace ember
