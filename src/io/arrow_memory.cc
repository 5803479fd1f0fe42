#include "io/arrow_memory.h"

#include <atomic>
#include <string>

#include "common/memory.h"

namespace ember::io {

namespace {

/// Arrow allocations served by an Ember pool (64-byte aligned, as Arrow asks by default);
/// larger alignments, which Arrow does not use for data buffers, go to Arrow's own allocator.
class AccountingPool final : public arrow::MemoryPool {
 public:
  AccountingPool() : pool_("io.arrow", ember::MemoryPool::root()) {}

  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override {
    if (alignment > kAlign) return fallback_->Allocate(size, alignment, out);
    try {
      *out = static_cast<uint8_t*>(pool_.allocate(static_cast<size_t>(size)));
    } catch (const std::exception& e) {
      return arrow::Status::OutOfMemory(e.what());
    }
    count(size);
    return arrow::Status::OK();
  }

  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment,
                           uint8_t** ptr) override {
    if (alignment > kAlign) return fallback_->Reallocate(old_size, new_size, alignment, ptr);
    try {
      *ptr = static_cast<uint8_t*>(
          pool_.reallocate(*ptr, static_cast<size_t>(old_size), static_cast<size_t>(new_size)));
    } catch (const std::exception& e) {
      return arrow::Status::OutOfMemory(e.what());
    }
    bytes_.fetch_add(new_size - old_size, std::memory_order_relaxed);
    return arrow::Status::OK();
  }

  void Free(uint8_t* buffer, int64_t size, int64_t alignment) override {
    if (alignment > kAlign) return fallback_->Free(buffer, size, alignment);
    pool_.free(buffer, static_cast<size_t>(size));
    bytes_.fetch_sub(size, std::memory_order_relaxed);
  }

  int64_t bytes_allocated() const override { return bytes_.load(std::memory_order_relaxed); }
  int64_t max_memory() const override { return pool_.peak(); }
  int64_t total_bytes_allocated() const override { return total_.load(std::memory_order_relaxed); }
  int64_t num_allocations() const override { return allocations_.load(std::memory_order_relaxed); }
  std::string backend_name() const override { return "ember"; }

 private:
  static constexpr int64_t kAlign = 64;

  void count(int64_t size) {
    bytes_.fetch_add(size, std::memory_order_relaxed);
    total_.fetch_add(size, std::memory_order_relaxed);
    allocations_.fetch_add(1, std::memory_order_relaxed);
  }

  ember::MemoryPool pool_;
  arrow::MemoryPool* fallback_ = arrow::default_memory_pool();
  std::atomic<int64_t> bytes_{0}, total_{0}, allocations_{0};
};

}  // namespace

arrow::MemoryPool* arrow_pool() {
  static AccountingPool* pool = new AccountingPool();
  return pool;
}

}  // namespace ember::io
