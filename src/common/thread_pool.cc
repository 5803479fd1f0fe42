#include "common/thread_pool.h"

#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>

namespace ember {

ThreadPool::ThreadPool(size_t threads) {
  for (size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job();
  }
}

void ThreadPool::parallel_run(size_t n, const std::function<void(size_t)>& task) {
  if (n == 0) return;
  struct Shared {
    std::mutex mu;
    std::condition_variable done_cv;
    size_t remaining;
    std::exception_ptr error;
    std::atomic<size_t> next{0};
  };
  auto shared = std::make_shared<Shared>();
  shared->remaining = n;
  // Each helper claims task indices dynamically, so the caller never waits on a task that a
  // busy pool has not started: the caller claims it itself.
  auto runner = [shared, n, &task] {
    for (;;) {
      size_t i = shared->next.fetch_add(1);
      if (i >= n) return;
      try {
        task(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(shared->mu);
        if (!shared->error) shared->error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(shared->mu);
      if (--shared->remaining == 0) shared->done_cv.notify_all();
    }
  };
  size_t helpers = std::min(n - 1, workers_.size());
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < helpers; ++i) queue_.emplace_back(runner);
  }
  cv_.notify_all();
  runner();
  std::unique_lock<std::mutex> lock(shared->mu);
  shared->done_cv.wait(lock, [&] { return shared->remaining == 0; });
  if (shared->error) std::rethrow_exception(shared->error);
}

ThreadPool& ThreadPool::global() {
  static ThreadPool pool([] {
    if (const char* env = std::getenv("EMBER_THREADS")) {
      long v = std::strtol(env, nullptr, 10);
      if (v > 0) return static_cast<size_t>(v - 1);
    }
    unsigned hc = std::thread::hardware_concurrency();
    return static_cast<size_t>(hc > 1 ? hc - 1 : 1);
  }());
  return pool;
}

}  // namespace ember
