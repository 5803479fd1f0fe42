#include "udf/python_runner.h"

#include <arrow/io/interfaces.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "common/error.h"
#include "io/arrow_bridge.h"
#include "udf/gpu_slots.h"
#include "udf/pickle.h"
#include "udf/worker_pool.h"
#include "udf/worker_protocol.h"

namespace ember::udf {

namespace {

using exec::PythonEvalType;

/// An Arrow input stream over the worker's socket, so that Arrow's IPC message reader reads
/// the results straight from the protocol's buffer.
class FrameInputStream final : public arrow::io::InputStream {
 public:
  explicit FrameInputStream(FrameReader& in) : in_(in) {}
  arrow::Status Close() override {
    closed_ = true;
    return arrow::Status::OK();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return in_.position(); }
  arrow::Result<int64_t> Read(int64_t nbytes, void* out) override {
    int64_t got = 0;
    auto* dst = static_cast<char*>(out);
    while (got < nbytes) {
      size_t k = in_.read_some(dst + got, static_cast<size_t>(nbytes - got));
      if (k == 0) break;
      got += static_cast<int64_t>(k);
    }
    return got;
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    ARROW_ASSIGN_OR_RAISE(auto buffer, arrow::AllocateResizableBuffer(nbytes));
    ARROW_ASSIGN_OR_RAISE(int64_t got, Read(nbytes, buffer->mutable_data()));
    ARROW_RETURN_NOT_OK(buffer->Resize(got, false));
    return std::shared_ptr<arrow::Buffer>(std::move(buffer));
  }

 private:
  FrameReader& in_;
  bool closed_ = false;
};

template <typename T>
T arrow_value(arrow::Result<T> r, const char* what) {
  io::check_arrow(r.status(), what);
  return std::move(r).ValueOrDie();
}

/// A batch of arguments as an Arrow IPC stream, cut into batches of at most `max_rows` rows (an
/// empty batch is still one batch: a cogroup's side without rows is an empty table).
std::string arrow_stream(const Schema& input_schema, const Batch& batch, int64_t max_rows) {
  auto schema = io::to_arrow_schema(input_schema);
  auto rb = io::batch_to_arrow(batch, input_schema);
  auto sink = arrow_value(arrow::io::BufferOutputStream::Create(), "allocating the Python input");
  auto writer = arrow_value(arrow::ipc::MakeStreamWriter(sink, schema), "opening the Python input");
  if (max_rows <= 0) max_rows = INT64_MAX;
  int64_t off = 0;
  do {
    io::check_arrow(writer->WriteRecordBatch(*rb->Slice(off, std::min(max_rows, rb->num_rows() - off))),
                    "writing the Python input");
    off += max_rows;
  } while (off < rb->num_rows());
  io::check_arrow(writer->Close(), "closing the Python input");
  return arrow_value(sink->Finish(), "finishing the Python input")->ToString();
}

/// The task's data: one Arrow stream; for grouped functions each group's stream after a 1, and
/// a 0 after the last; for cogrouped functions each key's two streams after a 2.
std::string input_stream(const exec::PythonTask& task) {
  const int64_t max_rows = task.settings->max_records_per_batch;
  if (!task.groups && !task.cogroups) return arrow_stream(task.input_schema, *task.input, max_rows);
  FrameWriter out;
  if (task.groups)
    for (auto& g : *task.groups) {
      out.int32(1);
      out.raw(arrow_stream(task.input_schema, g, max_rows));
    }
  if (task.cogroups)
    for (auto& [left, right] : *task.cogroups) {
      out.int32(2);
      out.raw(arrow_stream(task.input_schema, left, max_rows));
      out.raw(arrow_stream(task.other_schema, right, max_rows));
    }
  out.int32(0);
  return out.take();
}

/// The eval type the worker runs a call of `eval_type` with. Plain `udf(f)` runs with the
/// Arrow framing (SQL_ARROW_BATCHED_UDF): the worker calls the function row by row either
/// way, and the engine exchanges nothing but Arrow batches with its workers.
int32_t worker_eval_type(int eval_type) {
  if (eval_type == static_cast<int>(PythonEvalType::kBatchedUdf))
    return static_cast<int32_t>(PythonEvalType::kArrowBatchedUdf);
  // A plain udtf runs as an Arrow one, as Spark's planner runs it (ArrowEvalPythonUDTF).
  if (eval_type == static_cast<int>(PythonEvalType::kTableUdf))
    return static_cast<int32_t>(PythonEvalType::kArrowTableUdf);
  return eval_type;
}

std::string init_message(const exec::PythonTask& task, const std::vector<std::string>& gpu_addresses) {
  InitMessage m;
  m.gpu_addresses = gpu_addresses;
  m.split_index = static_cast<int32_t>(task.partition);
  m.partition_id = task.partition;
  m.python_version = task.calls.empty() ? "" : task.calls[0].function->python_version;
  m.spark_files_dir = "/tmp";
  m.eval_type = worker_eval_type(task.eval_type);
  for (auto& [k, v] : task.settings->runner_conf) m.runner_conf.emplace_back(k, v);
  m.eval_conf.emplace_back("input_type", DataType::struct_(task.input_schema)->json());
  if (task.table_function) {
    const exec::PythonTableFunctionInfo& info = *task.table_function;
    InitUdtf t;
    t.args = task.calls[0].args;
    t.arg_names = task.calls[0].function->arg_names;
    t.partition_child_indexes = info.partition_child_indexes;
    if (info.has_analyze_result) t.pickled_analyze_result = info.pickled_analyze_result;
    t.handler = task.calls[0].function->command;
    t.return_type_json = info.return_type_json;
    t.name = info.name;
    m.udtf = std::move(t);
    if (!info.table_arg_offsets.empty()) {
      std::string offsets;
      for (int o : info.table_arg_offsets) offsets += (offsets.empty() ? "" : ",") + std::to_string(o);
      m.eval_conf.emplace_back("table_arg_offsets", offsets);
    }
    return encode_init_message(m);
  }
  for (auto& call : task.calls) {
    InitUdf u;
    u.args = call.args;
    u.arg_names = call.function->arg_names;
    u.commands.push_back(call.function->command);
    m.udfs.push_back(std::move(u));
  }
  return encode_init_message(m);
}

void send_all(int fd, const std::string& bytes) {
  const char* p = bytes.data();
  size_t n = bytes.size();
  while (n > 0) {
    ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;  // the worker went away; the reader reports why
    p += k;
    n -= static_cast<size_t>(k);
  }
}

/// The protocol's reader over a worker's socket.
FrameReader socket_reader(int fd) {
  return FrameReader([fd](char* dst, size_t n) -> size_t {
    for (;;) {
      ssize_t k = ::recv(fd, dst, n, 0);
      if (k < 0 && errno == EINTR) continue;
      return k > 0 ? static_cast<size_t>(k) : 0;
    }
  });
}

/// Reads the worker's output: START_ARROW_STREAM and an IPC stream of result batches (nothing
/// when the worker produced no batch), or a Python exception at any point.
std::vector<std::shared_ptr<arrow::RecordBatch>> read_results(FrameReader& in) {
  int32_t marker = in.peek_int32();
  if (marker == kTimingData) return {};
  in.read_int32();
  if (marker == kPythonExceptionThrown) throw_python_error(read_python_exception(in));
  if (marker != kStartArrowStream)
    EMBER_UNREACHABLE("Python worker protocol: expected an Arrow stream, got " + std::to_string(marker));
  FrameInputStream stream(in);
  std::shared_ptr<arrow::Schema> schema;
  arrow::ipc::DictionaryMemo memo;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  for (;;) {
    if (in.peek_int32() == kPythonExceptionThrown) {
      in.read_int32();
      throw_python_error(read_python_exception(in));
    }
    auto message = arrow_value(arrow::ipc::ReadMessage(&stream), "reading the Python results");
    if (!message) break;  // end of the IPC stream
    if (!schema) {
      schema = arrow_value(arrow::ipc::ReadSchema(*message, &memo), "reading the Python results' schema");
      continue;
    }
    batches.push_back(arrow_value(
        arrow::ipc::ReadRecordBatch(*message, schema, &memo, arrow::ipc::IpcReadOptions::Defaults()),
        "reading a Python result batch"));
  }
  return batches;
}

}  // namespace

std::vector<ColumnPtr> PoolPythonRunner::run(const exec::PythonTask& task) {
  Schema result_schema;
  for (size_t i = 0; i < task.calls.size(); ++i)
    result_schema.push_back({"_" + std::to_string(i), task.calls[i].function->return_type, true, "{}"});
  // A task that asks for a GPU waits for its slot (and holds it until its results are read).
  GpuSlots::Lease gpu;
  if (task.settings->gpu_amount > 0 && !task.settings->gpu_addresses.empty())
    gpu = process_gpu_slots().acquire(task.settings->gpu_amount, task.settings->gpu_addresses);
  const std::string init = init_message(task, gpu.addresses());
  const std::string data = input_stream(task);

  Worker worker = pool_.acquire(python_executable(task.settings->executable));
  std::thread writer([&] {
    send_all(worker.fd, init);
    send_all(worker.fd, data);
    FrameWriter end;
    end.int32(kEndOfStream);
    send_all(worker.fd, end.bytes());
  });
  FrameReader in = socket_reader(worker.fd);
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  bool reusable = false;
  try {
    batches = read_results(in);
    reusable = read_task_end(in, in.read_int32()).reusable;
  } catch (...) {
    ::shutdown(worker.fd, SHUT_RDWR);  // unblocks the writer
    writer.join();
    pool_.release(worker, false);
    throw;
  }
  writer.join();
  pool_.release(worker, reusable);

  // The worker answers every input batch with a batch of one column per call.
  std::vector<Batch> parts;
  int64_t rows = 0;
  for (auto& rb : batches) {
    std::vector<std::shared_ptr<arrow::Array>> arrays;
    for (size_t i = 0; i < task.calls.size(); ++i)
      arrays.push_back(static_cast<int>(i) < rb->num_columns() ? rb->column(static_cast<int>(i)) : nullptr);
    parts.push_back(io::batch_from_arrow(arrays, rb->num_rows(), result_schema));
    rows += rb->num_rows();
    if (task.result_batch_rows) task.result_batch_rows->push_back(rb->num_rows());
  }
  if (task.row_per_row && task.input && rows != task.input->num_rows)
    EMBER_UNREACHABLE("Python worker protocol: " + std::to_string(rows) + " result rows for " +
                      std::to_string(task.input->num_rows) + " input rows");
  if (parts.empty()) {
    std::vector<ColumnPtr> empty;
    for (auto& f : result_schema) empty.push_back(ColumnBuilder(f.type).finish());
    return empty;
  }
  Batch all = parts.size() == 1 ? std::move(parts[0]) : concat_batches(parts, task.calls.size());
  return all.columns;
}

namespace {

[[noreturn]] void throw_analyze_failed(const std::string& message) {
  throw SparkError(ErrorKind::kAnalysis, "TABLE_VALUED_FUNCTION_FAILED_TO_ANALYZE_IN_PYTHON",
                   "Failed to analyze the Python user defined table function: " + message, {{"msg", message}},
                   "38000");
}

/// The request of pyspark.sql.worker.analyze_udtf: the planner worker's preamble (Python
/// version, files, broadcasts, settings), the function's name and pickled class, then per
/// argument its type as JSON, its pickled value when constant, whether it is a TABLE argument
/// and its keyword; END_OF_STREAM after it, which lets the worker be reused.
std::string analyze_request(const exec::PythonFunction& fn, const std::vector<exec::AnalyzeArgument>& args,
                            const exec::PythonSettings& settings) {
  FrameWriter out;
  out.string(fn.python_version);
  out.string("/tmp");   // spark files
  out.int32(0);         // python includes
  out.boolean(false);   // no broadcast decryption server
  out.int32(0);         // broadcast variables
  out.int32(static_cast<int32_t>(settings.runner_conf.size()));
  for (auto& [k, v] : settings.runner_conf) {
    out.string(k);
    out.string(v);
  }
  out.string(fn.name);
  out.string(fn.command);
  out.int32(static_cast<int32_t>(args.size()));
  for (auto& a : args) {
    out.string(a.type->json());
    std::optional<std::string> pickled = a.constant ? pickle_value(*a.constant, *a.type) : std::nullopt;
    out.boolean(pickled.has_value());
    if (pickled) out.string(*pickled);
    out.boolean(a.is_table);
    out.boolean(!a.name.empty());
    if (!a.name.empty()) out.string(a.name);
  }
  out.int32(kEndOfStream);
  return out.take();
}

}  // namespace

exec::TableFunctionAnalysis PoolPythonRunner::analyze_table_function(const exec::PythonFunction& function,
                                                                     const std::vector<exec::AnalyzeArgument>& args,
                                                                     const exec::PythonSettings& settings) {
  Worker worker = pool_.acquire(python_executable(settings.executable), "pyspark.sql.worker.analyze_udtf");
  send_all(worker.fd, analyze_request(function, args, settings));
  FrameReader in = socket_reader(worker.fd);
  exec::TableFunctionAnalysis r;
  bool reusable = false;
  try {
    if (in.peek_int32() == kPythonExceptionThrown) {
      in.read_int32();
      throw_analyze_failed(read_python_exception(in));
    }
    const std::string schema_json = in.read_string();
    r.schema = parse_json_type(schema_json);
    r.pickled_result = in.read_string();
    r.with_single_partition = in.read_int32() != 0;
    for (int32_t i = 0, n = in.read_int32(); i < n; ++i) r.partition_by.push_back(in.read_string());
    for (int32_t i = 0, n = in.read_int32(); i < n; ++i) {
      exec::TableFunctionAnalysis::Ordering o;
      o.name = in.read_string();
      o.ascending = in.read_int32() != 0;
      o.nulls_first = in.read_int32();
      r.order_by.push_back(std::move(o));
    }
    for (int32_t i = 0, n = in.read_int32(); i < n; ++i) {
      std::string name = in.read_string();
      r.select.emplace_back(std::move(name), in.read_string());
    }
    for (int32_t i = 0, n = in.read_int32(); i < n; ++i) in.read_string();  // accumulator updates
    reusable = in.read_int32() == kEndOfStream;
  } catch (...) {
    pool_.release(worker, false);
    throw;
  }
  pool_.release(worker, reusable);
  return r;
}

void install_worker_pool_runner() {
  exec::install_python_runner(std::make_shared<PoolPythonRunner>(WorkerPool::instance()));
}

}  // namespace ember::udf
