#pragma once

// GPU slots for Python tasks, as Spark schedules tasks that ask for a GPU resource: with
// spark.task.resource.gpu.amount = a, a GPU holds 1/a tasks at once when a < 1, and a task takes
// a whole GPUs when a >= 1. A task waits for its slot before its worker starts, and its
// TaskContext lists the addresses it got (`TaskContext.get().resources()["gpu"].addresses`),
// which is how a UDF picks the device its model runs on.

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace ember::udf {

class GpuSlots {
 public:
  /// The slots of `addresses` (one entry per GPU) for tasks that each ask for `amount`.
  /// Spark's rules: 0 < amount, and either amount <= 1 with 1 / amount whole, or amount whole.
  /// Throws INVALID_CONF_VALUE otherwise, and when a task would need more GPUs than there are.
  static void validate(double amount, size_t gpus);

  /// A held slot: the addresses a task got. Releases them when destroyed.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    const std::vector<std::string>& addresses() const { return addresses_; }

   private:
    friend class GpuSlots;
    GpuSlots* owner_ = nullptr;
    std::vector<size_t> taken_;  // indexes into the owner's GPUs, one slot on each
    std::vector<std::string> addresses_;
  };

  /// Waits until a task asking for `amount` of the GPUs named by `addresses` can run, then
  /// takes its share. The same set of addresses and amount must be used by every caller of one
  /// GpuSlots (the process-wide one is re-made when they change, see `process_slots`).
  Lease acquire(double amount, const std::vector<std::string>& addresses);

  /// Tasks holding slots now (for tests).
  int running() const;

 private:
  void release(Lease& lease);

  mutable std::mutex mu_;
  std::condition_variable freed_;
  std::vector<std::string> addresses_;
  std::vector<int> used_;  // slots used per GPU, out of `per_gpu_`
  int per_gpu_ = 0;
  int running_ = 0;
};

/// The process's slots (one scheduler for every session).
GpuSlots& process_gpu_slots();

}  // namespace ember::udf
