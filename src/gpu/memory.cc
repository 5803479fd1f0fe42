// The CUDA-independent parts of device memory: pool accounting, buffer ownership, the pinned
// pool's block management and the task semaphore. The CUDA calls are in runtime.cu.

#include "gpu/memory.h"

#include <algorithm>

#include "gpu/error.h"
#include "gpu/runtime.h"

namespace ember::gpu {

// ---- Device pool accounting ------------------------------------------------------------------

DeviceMemoryPool::DeviceMemoryPool(std::string name, DeviceMemoryPool* parent, int64_t limit)
    : name_(std::move(name)), parent_(parent), limit_(limit) {}

DeviceMemoryPool::~DeviceMemoryPool() = default;

void DeviceMemoryPool::reserve(int64_t bytes) {
  int64_t now = used_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ > 0 && now > limit_) {
    used_.fetch_sub(bytes, std::memory_order_relaxed);
    throw GpuOutOfMemory(static_cast<size_t>(bytes),
                         "device pool " + name_ + " holds " + std::to_string(now - bytes) +
                             " of its limit of " + std::to_string(limit_) + " bytes");
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

void DeviceMemoryPool::release(int64_t bytes) {
  used_.fetch_sub(bytes, std::memory_order_relaxed);
  if (parent_ != nullptr) parent_->release(bytes);
}

// ---- Device buffers --------------------------------------------------------------------------

DeviceBuffer::DeviceBuffer(size_t bytes, DeviceMemoryPool& pool, const Stream& stream)
    : data_(pool.allocate(bytes, stream)), size_(bytes), pool_(&pool), stream_(&stream) {}

DeviceBuffer::~DeviceBuffer() { reset(); }

void DeviceBuffer::reset() {
  if (data_ != nullptr) pool_->free(data_, size_, *stream_);
  data_ = nullptr;
  size_ = 0;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : data_(o.data_), size_(o.size_), pool_(o.pool_), stream_(o.stream_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    reset();
    data_ = o.data_;
    size_ = o.size_;
    pool_ = o.pool_;
    stream_ = o.stream_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

// ---- Pinned pool -----------------------------------------------------------------------------

namespace {
size_t granules(size_t n) { return (std::max<size_t>(n, 1) + 255) / 256 * 256; }
}  // namespace

PinnedPool::PinnedPool(size_t capacity) : capacity_(capacity / 256 * 256) {}

PinnedPool::~PinnedPool() { detail::free_pinned(base_); }

void* PinnedPool::allocate(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity_ == 0) return nullptr;
  if (!tried_) {
    tried_ = true;
    base_ = static_cast<uint8_t*>(detail::alloc_pinned(capacity_));
    if (base_ == nullptr) {
      capacity_ = 0;
      return nullptr;
    }
    blocks_.push_back({0, capacity_, false});
  }
  size_t n = granules(bytes);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i].used || blocks_[i].size < n) continue;
    if (blocks_[i].size > n)
      blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                     {blocks_[i].offset + n, blocks_[i].size - n, false});
    blocks_[i].size = n;
    blocks_[i].used = true;
    return base_ + blocks_[i].offset;
  }
  return nullptr;
}

void PinnedPool::free(void* p) {
  if (p == nullptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  size_t offset = static_cast<size_t>(static_cast<uint8_t*>(p) - base_);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    if (blocks_[i].offset != offset) continue;
    blocks_[i].used = false;
    if (i + 1 < blocks_.size() && !blocks_[i + 1].used) {
      blocks_[i].size += blocks_[i + 1].size;
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
    if (i > 0 && !blocks_[i - 1].used) {
      blocks_[i - 1].size += blocks_[i].size;
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return;
  }
}

size_t PinnedPool::used() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (auto& b : blocks_) n += b.used ? b.size : 0;
  return n;
}

// ---- Task semaphore --------------------------------------------------------------------------

void TaskSemaphore::acquire(int limit) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return active_ < std::max(limit, 1); });
  ++active_;
}

bool TaskSemaphore::try_acquire(int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  if (active_ >= std::max(limit, 1)) return false;
  ++active_;
  return true;
}

void TaskSemaphore::release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --active_;
  }
  cv_.notify_all();
}

int TaskSemaphore::active() const {
  std::lock_guard<std::mutex> lock(mu_);
  return active_;
}

}  // namespace ember::gpu
