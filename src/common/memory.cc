#include "common/memory.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "common/error.h"
#include "common/host_allocator.h"

namespace ember {
namespace {
constexpr size_t kAlign = 64;
size_t round_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }
}  // namespace

void tune_host_allocator() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // glibc deletes a thread arena's heap (64 MiB) when its top chunk covers it, unless the top
  // pad asks for that much free space to stay.
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

void release_free_host_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

MemoryPool::MemoryPool(std::string name, MemoryPool* parent, int64_t limit)
    : name_(std::move(name)), parent_(parent), limit_(limit) {}

MemoryPool::~MemoryPool() = default;

MemoryPool* MemoryPool::root() {
  static MemoryPool* pool = new MemoryPool("root");
  return pool;
}

void MemoryPool::reserve(int64_t bytes) {
  int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ > 0 && now > limit_) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    throw SparkError(ErrorKind::kRuntime, "UNABLE_TO_ACQUIRE_MEMORY",
                     "Unable to acquire " + std::to_string(bytes) + " bytes of memory, got 0 (pool " +
                         name_ + ", limit " + std::to_string(limit_) + ").");
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  if (parent_ != nullptr) {
    try {
      parent_->reserve(bytes);
    } catch (...) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      throw;
    }
  }
}

void MemoryPool::release(int64_t bytes) {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
  if (parent_ != nullptr) parent_->release(bytes);
}

void* MemoryPool::allocate(size_t bytes) {
  size_t n = round_up(bytes == 0 ? 1 : bytes);
  reserve(static_cast<int64_t>(n));
  void* p = std::aligned_alloc(kAlign, n);
  if (p == nullptr) {
    release(static_cast<int64_t>(n));
    throw SparkError(ErrorKind::kRuntime, "UNABLE_TO_ACQUIRE_MEMORY",
                     "Out of host memory allocating " + std::to_string(n) + " bytes.");
  }
  return p;
}

void MemoryPool::free(void* p, size_t bytes) {
  if (p == nullptr) return;
  std::free(p);
  release(static_cast<int64_t>(round_up(bytes == 0 ? 1 : bytes)));
}

void* MemoryPool::reallocate(void* p, size_t old_bytes, size_t new_bytes) {
  const size_t old_n = round_up(old_bytes == 0 ? 1 : old_bytes);
  const size_t new_n = round_up(new_bytes == 0 ? 1 : new_bytes);
  if (p != nullptr && new_n <= old_n) {
    // A shrink (Arrow trims each decoded buffer to its size) stays where it is: the allocator
    // gives the tail back in place, with no copy, and the block keeps its alignment.
    if (new_n == old_n) return p;
    void* q = std::realloc(p, new_n);
    if (q == nullptr) q = p;  // the block stays as it was, and valid
    if (reinterpret_cast<uintptr_t>(q) % kAlign != 0) {
      // The allocator moved it to a weaker alignment: move it once more, aligned (or keep it
      // where it is, valid if less aligned, when there is no memory for that).
      if (void* aligned = std::aligned_alloc(kAlign, new_n)) {
        std::memcpy(aligned, q, new_bytes);
        std::free(q);
        q = aligned;
      }
    }
    release(static_cast<int64_t>(old_n - new_n));
    return q;
  }
  void* q = allocate(new_bytes);
  if (p != nullptr) {
    std::memcpy(q, p, std::min(old_bytes, new_bytes));
    free(p, old_bytes);
  }
  return q;
}

std::shared_ptr<Buffer> Buffer::allocate(size_t size, MemoryPool* pool) {
  if (pool == nullptr) pool = MemoryPool::root();
  auto b = std::shared_ptr<Buffer>(new Buffer());
  b->pool_ = pool;
  b->capacity_ = round_up(size == 0 ? 1 : size);
  b->data_ = static_cast<uint8_t*>(pool->allocate(b->capacity_));
  b->size_ = size;
  // Zero the padding so that whole-word kernels and IPC see deterministic bytes.
  std::memset(b->data_ + size, 0, b->capacity_ - size);
  return b;
}

std::shared_ptr<Buffer> Buffer::zeroed(size_t size, MemoryPool* pool) {
  auto b = allocate(size, pool);
  std::memset(b->data_, 0, b->capacity_);
  return b;
}

std::shared_ptr<Buffer> Buffer::view(std::shared_ptr<const Buffer> parent, size_t offset,
                                     size_t size) {
  EMBER_CHECK(offset + size <= parent->size(), "buffer view out of range");
  auto b = std::shared_ptr<Buffer>(new Buffer());
  b->data_ = const_cast<uint8_t*>(parent->data() + offset);
  b->size_ = size;
  b->capacity_ = size;
  b->keep_alive_ = std::move(parent);
  return b;
}

std::shared_ptr<Buffer> Buffer::wrap(const void* data, size_t size,
                                     std::shared_ptr<void> keep_alive) {
  auto b = std::shared_ptr<Buffer>(new Buffer());
  b->data_ = const_cast<uint8_t*>(static_cast<const uint8_t*>(data));
  b->size_ = size;
  b->capacity_ = size;
  b->keep_alive_ = std::move(keep_alive);
  return b;
}

Buffer::~Buffer() {
  if (pool_ != nullptr) pool_->free(data_, capacity_);
}

void Buffer::resize(size_t new_size) {
  EMBER_CHECK(pool_ != nullptr, "cannot resize a view buffer");
  if (new_size > capacity_) {
    size_t cap = std::max(round_up(new_size), capacity_ * 2);
    auto* p = static_cast<uint8_t*>(pool_->allocate(cap));
    std::memcpy(p, data_, size_);
    pool_->free(data_, capacity_);
    data_ = p;
    capacity_ = cap;
  }
  if (new_size > size_) {
    // Keep bytes past the end zeroed so padding stays deterministic.
    std::memset(data_ + size_, 0, std::min(capacity_, round_up(new_size)) - size_);
  }
  size_ = new_size;
}

}  // namespace ember
