#pragma once

// Runs the engine's Python tasks on the worker pool. A task (a batch of a scalar function, a
// partition of a map function or UDTF, a sink's groups) frames the init message, streams the
// arguments to the worker as an Arrow IPC stream (in chunks
// of spark.sql.execution.arrow.maxRecordsPerBatch rows) from a writer thread while the calling
// thread reads the results, and hands the worker back for reuse when the task ended cleanly.

#include <memory>

#include "exec/python_udf.h"

namespace ember::udf {

class WorkerPool;

class PoolPythonRunner final : public exec::PythonRunner {
 public:
  explicit PoolPythonRunner(WorkerPool& pool) : pool_(pool) {}
  std::vector<ColumnPtr> run(const exec::PythonTask& task) override;
  exec::TableFunctionAnalysis analyze_table_function(const exec::PythonFunction& function,
                                                     const std::vector<exec::AnalyzeArgument>& args,
                                                     const exec::PythonSettings& settings) override;

 private:
  WorkerPool& pool_;
};

/// Installs a runner over the process-wide worker pool (exec::install_python_runner).
void install_worker_pool_runner();

}  // namespace ember::udf
