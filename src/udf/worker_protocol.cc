#include "udf/worker_protocol.h"

#include <cstring>

#include "common/error.h"
#include "common/json.h"

namespace ember::udf {

void FrameWriter::int32(int32_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8) out_.push_back(static_cast<char>((u >> shift) & 0xff));
}

void FrameWriter::int64(int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  for (int shift = 56; shift >= 0; shift -= 8) out_.push_back(static_cast<char>((u >> shift) & 0xff));
}

void FrameWriter::boolean(bool v) { out_.push_back(v ? 1 : 0); }

void FrameWriter::string(const std::string& s) {
  int32(static_cast<int32_t>(s.size()));
  out_ += s;
}

bool FrameReader::fill(size_t want) {
  while (buffer_.size() - head_ < want) {
    if (head_ > 0 && head_ == buffer_.size()) {
      buffer_.clear();
      head_ = 0;
    }
    size_t old = buffer_.size();
    size_t chunk = std::max<size_t>(want - (old - head_), 64 * 1024);
    buffer_.resize(old + chunk);
    size_t got = source_(buffer_.data() + old, chunk);
    buffer_.resize(old + got);
    if (got == 0) return false;
  }
  return true;
}

size_t FrameReader::read_some(char* dst, size_t n) {
  if (head_ == buffer_.size() && !fill(1)) return 0;
  size_t take = std::min(n, buffer_.size() - head_);
  std::memcpy(dst, buffer_.data() + head_, take);
  head_ += take;
  position_ += static_cast<int64_t>(take);
  return take;
}

void FrameReader::read_exact(char* dst, size_t n) {
  if (!fill(n))
    throw SparkError(ErrorKind::kPython, "",
                     "Python worker exited unexpectedly (crashed).", {}, "");
  std::memcpy(dst, buffer_.data() + head_, n);
  head_ += n;
  position_ += static_cast<int64_t>(n);
}

std::string FrameReader::read_bytes(size_t n) {
  std::string s(n, '\0');
  read_exact(s.data(), n);
  return s;
}

int32_t FrameReader::read_int32() {
  unsigned char b[4];
  read_exact(reinterpret_cast<char*>(b), 4);
  return static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]);
}

int32_t FrameReader::peek_int32() {
  if (!fill(4))
    throw SparkError(ErrorKind::kPython, "",
                     "Python worker exited unexpectedly (crashed).", {}, "");
  auto* b = reinterpret_cast<const unsigned char*>(buffer_.data() + head_);
  return static_cast<int32_t>((uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3]);
}

int64_t FrameReader::read_int64() {
  uint64_t hi = static_cast<uint32_t>(read_int32());
  uint64_t lo = static_cast<uint32_t>(read_int32());
  return static_cast<int64_t>((hi << 32) | lo);
}

std::string FrameReader::read_string() {
  int32_t n = read_int32();
  if (n < 0) EMBER_UNREACHABLE("Python worker protocol: a string of length " + std::to_string(n));
  return read_bytes(static_cast<size_t>(n));
}

namespace {

// TaskContextInfo as JSON: one attempt of one task on one CPU, no barrier; resources: the GPUs
// the task holds, if any.
std::string task_context_json(const InitMessage& m) {
  std::string resources = "{}";
  if (!m.gpu_addresses.empty()) {
    resources = "{\"gpu\":{\"name\":\"gpu\",\"addresses\":[";
    for (size_t i = 0; i < m.gpu_addresses.size(); ++i)
      resources += (i ? "," : "") + json_quote(m.gpu_addresses[i]);
    resources += "]}}";
  }
  return "{\"isBarrier\":false,\"connInfo\":null,\"secret\":null,\"stageId\":" + std::to_string(m.stage_id) +
         ",\"partitionId\":" + std::to_string(m.partition_id) + ",\"attemptNumber\":0,\"taskAttemptId\":" +
         std::to_string(m.task_attempt_id) + ",\"cpus\":1,\"cpuAmount\":\"1\",\"resources\":" + resources +
         ",\"localProperties\":{}}";
}

/// The functions of a scalar or grouped task: per call its argument offsets and command chain.
void encode_udfs(FrameWriter& body, const std::vector<InitUdf>& udfs) {
  body.int32(static_cast<int32_t>(udfs.size()));
  for (auto& u : udfs) {
    body.int32(static_cast<int32_t>(u.args.size()));
    for (size_t i = 0; i < u.args.size(); ++i) {
      body.int32(u.args[i]);
      const bool named = i < u.arg_names.size() && !u.arg_names[i].empty();
      body.boolean(named);  // a keyword argument, then its name
      if (named) body.string(u.arg_names[i]);
    }
    body.int32(static_cast<int32_t>(u.commands.size()));
    for (auto& c : u.commands) body.string(c);
    body.int64(u.result_id);
  }
}

}  // namespace

std::string encode_init_message(const InitMessage& m) {
  FrameWriter body;
  body.int32(m.split_index);
  body.string(m.python_version);
  body.string(task_context_json(m));
  body.string(m.spark_files_dir);
  body.int32(0);         // python includes
  body.boolean(false);   // no broadcast decryption server
  body.int32(0);         // broadcast variables
  body.int32(m.eval_type);
  body.int32(static_cast<int32_t>(m.runner_conf.size()));
  for (auto& [k, v] : m.runner_conf) {
    body.string(k);
    body.string(v);
  }
  body.int32(static_cast<int32_t>(m.eval_conf.size()));
  for (auto& [k, v] : m.eval_conf) {
    body.string(k);
    body.string(v);
  }
  if (m.udtf) {
    const InitUdtf& t = *m.udtf;
    body.int32(static_cast<int32_t>(t.args.size()));
    for (size_t i = 0; i < t.args.size(); ++i) {
      body.int32(t.args[i]);
      const bool named = i < t.arg_names.size() && !t.arg_names[i].empty();
      body.boolean(named);  // a keyword argument, then its name
      if (named) body.string(t.arg_names[i]);
    }
    body.int32(static_cast<int32_t>(t.partition_child_indexes.size()));
    for (int i : t.partition_child_indexes) body.int32(i);
    body.boolean(t.pickled_analyze_result.has_value());
    if (t.pickled_analyze_result) body.string(*t.pickled_analyze_result);
    body.string(t.handler);
    body.string(t.return_type_json);
    body.string(t.name);
  } else {
    encode_udfs(body, m.udfs);
  }
  FrameWriter framed;
  framed.int32(kStartOfInitMessage);
  framed.string(body.bytes());
  return framed.take();
}

[[noreturn]] void throw_python_error(const std::string& traceback) {
  throw SparkError(ErrorKind::kPython, "", traceback, {}, "");
}

TaskEnd read_task_end(FrameReader& in, int32_t first) {
  // A function that fails after some results closes their IPC stream before it reports the
  // exception.
  if (first == kPythonExceptionThrown) throw_python_error(read_python_exception(in));
  if (first != kTimingData)
    EMBER_UNREACHABLE("Python worker protocol: expected timing data, got " + std::to_string(first));
  TaskEnd end;
  end.boot_ms = in.read_int64();
  end.init_ms = in.read_int64();
  end.finish_ms = in.read_int64();
  in.read_int64();  // processing time
  in.read_int64();  // memory bytes spilled
  in.read_int64();  // disk bytes spilled
  int32_t marker = in.read_int32();
  if (marker != kEndOfDataSection)
    EMBER_UNREACHABLE("Python worker protocol: expected the end of the data section, got " + std::to_string(marker));
  end.accumulator_updates = in.read_int32();
  for (int32_t i = 0; i < end.accumulator_updates; ++i) in.read_string();
  end.reusable = in.read_int32() == kEndOfStream;
  return end;
}

std::string read_python_exception(FrameReader& in) { return in.read_string(); }

}  // namespace ember::udf
