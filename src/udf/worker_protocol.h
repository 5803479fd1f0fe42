#pragma once

// The framing of PySpark's worker protocol, the side the JVM plays in Spark (PythonRunner):
// big-endian integers, length-prefixed UTF-8 strings, negative "special lengths" that mark
// sections, and the init message that carries the task context, the eval type, the runner's
// settings and the pickled functions. The data that follows is an Arrow IPC stream (see
// python_runner.cc); this file only knows bytes.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ember::udf {

/// pyspark.serializers.SpecialLengths.
enum SpecialLength : int32_t {
  kEndOfDataSection = -1,
  kPythonExceptionThrown = -2,
  kTimingData = -3,
  kEndOfStream = -4,
  kNullValue = -5,
  kStartArrowStream = -6,
  kStartOfInitMessage = -8,
};

/// Appends protocol values to a byte string.
class FrameWriter {
 public:
  void int32(int32_t v);
  void int64(int64_t v);
  void boolean(bool v);
  /// A length-prefixed string (PySpark's UTF8Deserializer and length-prefixed bytes).
  void string(const std::string& s);
  void raw(const std::string& bytes) { out_ += bytes; }
  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

/// Reads protocol values from a source of bytes, buffering. `read_some` fills up to n bytes and
/// returns how many it read, 0 at the end of the stream.
class FrameReader {
 public:
  using Source = std::function<size_t(char* dst, size_t n)>;
  explicit FrameReader(Source source) : source_(std::move(source)) {}

  /// Reads exactly n bytes; at the end of the stream (the worker went away) throws Spark's
  /// "Python worker exited unexpectedly (crashed)" as a Python error.
  void read_exact(char* dst, size_t n);
  std::string read_bytes(size_t n);
  int32_t read_int32();
  int64_t read_int64();
  std::string read_string();
  /// Looks at the next four bytes without consuming them.
  int32_t peek_int32();
  /// Reads up to n bytes (at least one unless the stream ended).
  size_t read_some(char* dst, size_t n);
  int64_t position() const { return position_; }

 private:
  bool fill(size_t want);
  Source source_;
  std::string buffer_;
  size_t head_ = 0;
  int64_t position_ = 0;
};

/// One function call of the init message: the input columns it takes and its pickled command
/// (a chain of commands for nested functions, innermost first).
struct InitUdf {
  std::vector<int> args;
  std::vector<std::string> commands;
  int64_t result_id = 0;
  /// Per argument, its keyword when passed by name (empty: positional); may be shorter.
  std::vector<std::string> arg_names;
};

/// A table function (UDTF) in the init message, which takes the place of the list of functions
/// for the table eval types (pyspark.worker_message.UDTFInfo): its argument columns, the
/// columns that only mark partition boundaries, the pickled result of its `analyze` method (if
/// any), its pickled class, its return type as Spark's JSON and its name.
struct InitUdtf {
  std::vector<int> args;
  /// Per argument, its keyword when passed by name (empty: positional); may be shorter.
  std::vector<std::string> arg_names;
  std::vector<int> partition_child_indexes;
  std::optional<std::string> pickled_analyze_result;
  std::string handler;
  std::string return_type_json;
  std::string name;
};

/// What the worker reads before its data (pyspark.worker_message.WorkerInitInfo).
struct InitMessage {
  int32_t split_index = 0;
  std::string python_version;
  int64_t stage_id = 0;
  int64_t partition_id = 0;
  int64_t task_attempt_id = 0;
  std::string spark_files_dir;
  int32_t eval_type = 0;
  std::vector<std::pair<std::string, std::string>> runner_conf;
  std::vector<std::pair<std::string, std::string>> eval_conf;
  std::vector<InitUdf> udfs;
  /// The GPUs the task holds (TaskContext.resources()["gpu"].addresses); none: no resources.
  std::vector<std::string> gpu_addresses;
  /// Set for the table eval types (300-302), which send it instead of `udfs`.
  std::optional<InitUdtf> udtf;
};

/// The init message framed as the worker expects it: START_OF_INIT_MESSAGE, its length, then
/// its content.
std::string encode_init_message(const InitMessage& m);

/// What follows the worker's output data: timing, spill counters, END_OF_DATA_SECTION, the
/// accumulator updates and finally END_OF_STREAM when the worker may be reused.
struct TaskEnd {
  int64_t boot_ms = 0, init_ms = 0, finish_ms = 0;
  int32_t accumulator_updates = 0;
  bool reusable = false;
};
/// Reads the end of a task; `first` is the marker already read (TIMING_DATA normally, or
/// PYTHON_EXCEPTION_THROWN from a function that failed after it sent results, thrown as
/// throw_python_error does).
TaskEnd read_task_end(FrameReader& in, int32_t first);

/// A Python error in the worker's output (after PYTHON_EXCEPTION_THROWN): the traceback text.
std::string read_python_exception(FrameReader& in);

/// Fails the query with the Python traceback, as Spark's PythonException.
[[noreturn]] void throw_python_error(const std::string& traceback);

}  // namespace ember::udf
