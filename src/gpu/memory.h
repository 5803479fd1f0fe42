#pragma once

// Device memory: streams, the accounted stream-ordered device pool, owned device buffers and the
// pinned host staging pool. The header is CUDA-free so that the planner and CPU-only builds can
// include it; handles are opaque.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ember::gpu {

/// A CUDA stream (non-blocking with respect to the legacy default stream). Work on one stream
/// runs in order; device memory freed on a stream may be reused by later work on any stream
/// once that work is ordered after the free.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  /// The cudaStream_t.
  void* handle() const { return handle_; }
  /// Waits for all work queued on the stream; throws GpuError on a failure of that work.
  void synchronize() const;

 private:
  void* handle_ = nullptr;
};

/// Accounts device bytes like `MemoryPool` does host bytes: a tree (process → query) in which an
/// allocation is charged to the pool and its ancestors; a pool with a limit refuses what would
/// exceed it. Allocation is stream-ordered (cudaMallocAsync from the runtime's CUDA memory pool;
/// plain cudaMalloc where the device has no memory pools). Failures raise GpuOutOfMemory.
class DeviceMemoryPool {
 public:
  DeviceMemoryPool(std::string name, DeviceMemoryPool* parent, int64_t limit);
  ~DeviceMemoryPool();
  DeviceMemoryPool(const DeviceMemoryPool&) = delete;
  DeviceMemoryPool& operator=(const DeviceMemoryPool&) = delete;

  void* allocate(size_t bytes, const Stream& stream);
  void free(void* p, size_t bytes, const Stream& stream);

  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }
  int64_t limit() const { return limit_; }
  const std::string& name() const { return name_; }

 private:
  void reserve(int64_t bytes);
  void release(int64_t bytes);

  std::string name_;
  DeviceMemoryPool* parent_;
  int64_t limit_;
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

/// Device memory owned by a pool, freed on the stream it was allocated on when destroyed.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(size_t bytes, DeviceMemoryPool& pool, const Stream& stream);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return size_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  explicit operator bool() const { return data_ != nullptr; }
  void reset();

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
  DeviceMemoryPool* pool_ = nullptr;
  const Stream* stream_ = nullptr;
};

/// Page-locked host memory for staging copies, allocated once (lazily, at the first request)
/// with the size of spark.rapids.memory.pinnedPool.size and handed out first-fit in 256-byte
/// granules. `allocate` returns nullptr when the pool is empty or exhausted: callers then copy
/// from pageable memory, which is slower but always works.
class PinnedPool {
 public:
  explicit PinnedPool(size_t capacity);
  ~PinnedPool();
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  void* allocate(size_t bytes);
  void free(void* p);
  size_t capacity() const { return capacity_; }
  size_t used() const;

 private:
  struct Block {
    size_t offset, size;
    bool used;
  };
  mutable std::mutex mu_;
  size_t capacity_;
  uint8_t* base_ = nullptr;
  bool tried_ = false;
  std::vector<Block> blocks_;  // sorted by offset, covering [0, capacity)
};

namespace detail {
/// Page-locked host memory (cudaHostAlloc); nullptr when it cannot be had.
void* alloc_pinned(size_t bytes);
void free_pinned(void* p);
}  // namespace detail

/// Host → device and device → host copies on a stream (cudaMemcpyAsync); the caller keeps
/// host memory alive until the stream is synchronized.
void copy_to_device(void* dst, const void* src, size_t bytes, const Stream& stream);
void copy_to_host(void* dst, const void* src, size_t bytes, const Stream& stream);
void fill_device(void* dst, int byte, size_t bytes, const Stream& stream);

}  // namespace ember::gpu
