#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ember {

/// A fixed set of worker threads shared by every query of the process. Query pipelines run as
/// `parallel_run`: N tasks that each pull morsels from a shared source until it is empty, so
/// work balances itself and one query can use every core.
class ThreadPool {
 public:
  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t size() const { return workers_.size(); }

  /// Runs `task(i)` for i in [0, n) on the pool and the calling thread, and waits for all.
  /// The first exception thrown by any task is rethrown here after every task has finished.
  void parallel_run(size_t n, const std::function<void(size_t)>& task);

  /// The process-wide pool, sized to the hardware concurrency (EMBER_THREADS overrides).
  static ThreadPool& global();

 private:
  void work();

  std::vector<std::thread> workers_;
  std::deque<std::function<void()>> queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace ember
