#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ember {

/// Accounts the bytes held by one consumer (a query, a cache, the whole process). Pools form a
/// tree: an allocation is charged to the pool and all its ancestors, so the root sees the
/// process total and a query pool sees the query's. Allocation never blocks; a pool with a
/// limit throws a Spark-style out-of-memory error when the limit would be exceeded.
class MemoryPool {
 public:
  explicit MemoryPool(std::string name, MemoryPool* parent = nullptr, int64_t limit = 0);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  void* allocate(size_t bytes);
  void free(void* p, size_t bytes);
  void* reallocate(void* p, size_t old_bytes, size_t new_bytes);

  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }
  const std::string& name() const { return name_; }

  /// The process-wide root pool.
  static MemoryPool* root();

 private:
  void reserve(int64_t bytes);
  void release(int64_t bytes);

  std::string name_;
  MemoryPool* parent_;
  int64_t limit_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

/// A contiguous, 64-byte aligned, zero-padded-to-64 region of memory owned by a pool, or a view
/// into another buffer (which it keeps alive). Buffers are immutable once shared; writers use
/// `mutable_data()` only before publishing the column that holds them.
class Buffer {
 public:
  /// Allocates `size` bytes (contents uninitialised except the padding).
  static std::shared_ptr<Buffer> allocate(size_t size, MemoryPool* pool = nullptr);
  /// Allocates `size` zeroed bytes.
  static std::shared_ptr<Buffer> zeroed(size_t size, MemoryPool* pool = nullptr);
  /// A view of `size` bytes at `offset` into `parent`.
  static std::shared_ptr<Buffer> view(std::shared_ptr<const Buffer> parent, size_t offset,
                                      size_t size);
  /// Wraps memory owned by someone else; `keep_alive` is held until the buffer dies.
  static std::shared_ptr<Buffer> wrap(const void* data, size_t size,
                                      std::shared_ptr<void> keep_alive);

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const { return data_; }
  uint8_t* mutable_data() { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_as() { return reinterpret_cast<T*>(data_); }

  /// Grows or shrinks an owned buffer in place (amortised); views cannot be resized.
  void resize(size_t new_size);

 private:
  Buffer() = default;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  MemoryPool* pool_ = nullptr;                   // set when this buffer owns data_
  std::shared_ptr<const void> keep_alive_;      // set for views and wrapped memory
};

using BufferPtr = std::shared_ptr<Buffer>;

}  // namespace ember
