#pragma once

// The pool of Python worker processes. For each interpreter it starts PySpark's own daemon
// (`python -m pyspark.daemon`, listening on a Unix socket, with worker reuse on): every
// connection to the daemon's socket is a forked worker that runs tasks one after another on
// that connection. A worker whose task ended cleanly goes back to the pool for the next batch
// or query; one that failed is closed and killed (the daemon kills it on request), so a crash
// or a raising function never leaves a worker in an unknown state. A daemon that died is
// started again on the next request.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ember::udf {

/// A connected worker: the socket the task runs over, the worker's process id, and the
/// interpreter and worker module (empty: pyspark.worker) of the daemon that forked it.
struct Worker {
  int fd = -1;
  int pid = -1;
  std::string executable;
  std::string module;
};

class WorkerPool {
 public:
  /// The process-wide pool.
  static WorkerPool& instance();
  WorkerPool();
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// An idle worker of `executable` that runs `module`'s main (PySpark's daemon takes the
  /// module as its argument; empty: pyspark.worker, the tasks' worker), or a new one. Throws a
  /// Python error when the interpreter cannot start PySpark's daemon.
  Worker acquire(const std::string& executable, const std::string& module = "");
  /// Returns a worker: kept for reuse when `reusable` (its task ended with END_OF_STREAM),
  /// closed and killed otherwise.
  void release(Worker worker, bool reusable);

  /// Counters for tests and explain: workers forked so far, idle workers now.
  int64_t workers_started() const;
  size_t idle_workers() const;
  /// Closes idle workers and stops the daemons (their workers exit with them).
  void shutdown();

 private:
  struct Daemon;
  Daemon& daemon(const std::string& executable, const std::string& module);
  void stop(Daemon& d);

  mutable std::mutex mu_;
  /// By interpreter and worker module.
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Daemon>> daemons_;
  int64_t started_ = 0;
};

/// The interpreter Ember runs workers with: `spark.pyspark.python` when set, else the
/// PYSPARK_PYTHON environment variable, else `python3`.
std::string python_executable(const std::string& configured);

}  // namespace ember::udf
