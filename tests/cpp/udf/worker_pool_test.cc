// The worker pool and the runner against real PySpark workers: they need an interpreter with
// PySpark (PYSPARK_PYTHON, or the repository's .venv), and are skipped without one.

#include "udf/worker_pool.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "udf/python_runner.h"

namespace ember::udf {
namespace {

std::string python() {
  if (const char* env = std::getenv("PYSPARK_PYTHON"); env && *env) return env;
  std::string venv = std::string(EMBER_SOURCE_DIR) + "/.venv/bin/python";
  return std::filesystem::exists(venv) ? venv : "";
}

std::string run_python(const std::string& code) {
  std::string cmd = python() + " -c \"" + code + "\"";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return "";
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

/// The client's pickle of (function, IntegerType()), as pyspark.sql.udf sends it.
std::shared_ptr<exec::PythonFunction> function(const std::string& source) {
  auto f = std::make_shared<exec::PythonFunction>();
  f->name = "f";
  f->eval_type = static_cast<int>(exec::PythonEvalType::kBatchedUdf);
  f->command = run_python("import sys; from pyspark import cloudpickle; from pyspark.sql.types import IntegerType; "
                          "sys.stdout.buffer.write(cloudpickle.dumps((" + source + ", IntegerType())))");
  f->python_version = run_python("import sys; print('%d.%d' % sys.version_info[:2], end='')");
  f->return_type = DataType::int_();
  return f;
}

Batch ints(int n) {
  ColumnBuilder b(DataType::int_());
  for (int i = 0; i < n; ++i) {
    if (i == 1) b.append_null();
    else b.append<int32_t>(i);
  }
  return Batch({b.finish()}, n);
}

class WorkerPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (python().empty()) GTEST_SKIP() << "no Python with PySpark";
    settings_.executable = python();
    settings_.max_records_per_batch = 4;  // several Arrow batches per task
  }
  std::vector<ColumnPtr> run(WorkerPool& pool, const std::shared_ptr<exec::PythonFunction>& f, const Batch& input) {
    exec::PythonTask task;
    task.eval_type = f->eval_type;
    task.calls.push_back({f, {0}});
    task.input = &input;
    task.input_schema = {{"_0", DataType::int_(), true, "{}"}};
    task.settings = &settings_;
    PoolPythonRunner runner(pool);
    return runner.run(task);
  }
  exec::PythonSettings settings_;
};

TEST_F(WorkerPoolTest, RunsAndReusesWorkers) {
  WorkerPool pool;
  auto f = function("lambda v: None if v is None else v * 10");
  Batch input = ints(10);
  for (int round = 0; round < 3; ++round) {
    auto out = run(pool, f, input);
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0]->length(), 10);
    EXPECT_TRUE(out[0]->is_null(1));
    EXPECT_EQ(out[0]->value_at(7).as_int(), 70);
  }
  EXPECT_EQ(pool.workers_started(), 1);  // one worker ran all three tasks
  EXPECT_EQ(pool.idle_workers(), 1u);
}

TEST_F(WorkerPoolTest, RaisingFunctionGivesThePythonTraceback) {
  WorkerPool pool;
  auto bad = function("lambda v: 1 // 0");
  try {
    run(pool, bad, ints(3));
    FAIL() << "expected a Python error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kPython);
    EXPECT_NE(e.message().find("ZeroDivisionError"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("Traceback"), std::string::npos) << e.message();
  }
  EXPECT_EQ(pool.idle_workers(), 0u);  // the failed worker is not reused
  auto out = run(pool, function("lambda v: 5"), ints(2));
  EXPECT_EQ(out[0]->value_at(0).as_int(), 5);
  EXPECT_EQ(pool.workers_started(), 2);
}

TEST_F(WorkerPoolTest, CrashedWorkerIsReplaced) {
  WorkerPool pool;
  auto crash = function("lambda v: __import__('os')._exit(3)");
  try {
    run(pool, crash, ints(3));
    FAIL() << "expected a Python error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kPython);
    EXPECT_NE(e.message().find("exited unexpectedly"), std::string::npos) << e.message();
  }
  auto out = run(pool, function("lambda v: 6"), ints(9));
  EXPECT_EQ(out[0]->length(), 9);
  EXPECT_EQ(out[0]->value_at(8).as_int(), 6);
}

TEST_F(WorkerPoolTest, EmptyInput) {
  WorkerPool pool;
  auto out = run(pool, function("lambda v: v"), ints(0));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]->length(), 0);
}

TEST_F(WorkerPoolTest, MissingInterpreterIsAnError) {
  WorkerPool pool;
  settings_.executable = "/nonexistent/python";
  EXPECT_THROW(run(pool, function("lambda v: v"), ints(2)), SparkError);
}

}  // namespace
}  // namespace ember::udf
