#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/device.h"
#include "gpu/memory.h"
#include "gpu/settings.h"

namespace ember::gpu {

/// Bounds how many tasks use the GPU at once (spark.rapids.sql.concurrentGpuTasks). The limit
/// follows the latest session setting; waiting tasks are admitted as permits return.
class TaskSemaphore {
 public:
  void acquire(int limit);
  /// A permit if one is free now (false: none taken, nothing waited for).
  bool try_acquire(int limit);
  void release();
  int active() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int active_ = 0;
};

/// The process's GPU state: the device pool, the pinned staging pool, the task semaphore and
/// the tables the kernels share. Created on first use; a sticky CUDA error disables it for the
/// rest of the process (queries then run on the CPU, with the error as the reason).
class Runtime {
 public:
  /// The runtime, started with `settings` on first call; nullptr when the GPU cannot be used
  /// (see `unavailable_reason`). Thread-safe.
  static Runtime* get(const GpuSettings& settings);
  /// Why `get` returns nullptr, or "" when it does not.
  static std::string unavailable_reason();
  /// The running runtime, or nullptr when none was started yet (for `ember doctor`).
  static Runtime* started();

  DeviceMemoryPool& device_pool() { return *device_pool_; }
  PinnedPool& pinned_pool() { return *pinned_pool_; }
  TaskSemaphore& semaphore() { return semaphore_; }
  /// Device copy of the xorshift jump tables used by rand (see kernels).
  const void* rand_jump_tables() const { return jump_tables_.data(); }

  /// Turns the GPU off for the rest of the process after an unrecoverable error.
  static void disable(const std::string& reason);

 private:
  explicit Runtime(const GpuSettings& settings);
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<DeviceMemoryPool> device_pool_;
  std::unique_ptr<PinnedPool> pinned_pool_;
  TaskSemaphore semaphore_;
  DeviceBuffer jump_tables_;
};

/// Holds one permit of the task semaphore for its lifetime: waited for, or (with
/// std::try_to_lock) taken only if one is free now, which `owns()` tells.
class GpuTaskPermit {
 public:
  GpuTaskPermit(Runtime& runtime, int limit) : runtime_(runtime), owns_(true) {
    runtime_.semaphore().acquire(limit);
  }
  GpuTaskPermit(Runtime& runtime, int limit, std::try_to_lock_t)
      : runtime_(runtime), owns_(runtime_.semaphore().try_acquire(limit)) {}
  ~GpuTaskPermit() {
    if (owns_) runtime_.semaphore().release();
  }
  GpuTaskPermit(const GpuTaskPermit&) = delete;
  GpuTaskPermit& operator=(const GpuTaskPermit&) = delete;
  bool owns() const { return owns_; }

 private:
  Runtime& runtime_;
  bool owns_;
};

}  // namespace ember::gpu
