#include "udf/worker_protocol.h"

#include <gtest/gtest.h>

#include <cstring>

#include "common/error.h"

namespace ember::udf {
namespace {

/// A reader over fixed bytes, handing them out `chunk` bytes at a time (as a socket may).
FrameReader reader_over(const std::string& bytes, size_t chunk = 3) {
  auto pos = std::make_shared<size_t>(0);
  return FrameReader([bytes, pos, chunk](char* dst, size_t n) -> size_t {
    size_t k = std::min({n, chunk, bytes.size() - *pos});
    std::memcpy(dst, bytes.data() + *pos, k);
    *pos += k;
    return k;
  });
}

TEST(WorkerProtocol, IntegersAreBigEndian) {
  FrameWriter w;
  w.int32(-8);
  w.int32(0x01020304);
  w.int64(0x0102030405060708LL);
  w.boolean(true);
  const std::string& b = w.bytes();
  ASSERT_EQ(b.size(), 17u);
  EXPECT_EQ(std::string(b.data(), 4), std::string("\xff\xff\xff\xf8", 4));
  EXPECT_EQ(std::string(b.data() + 4, 4), std::string("\x01\x02\x03\x04", 4));
  EXPECT_EQ(std::string(b.data() + 8, 8), std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  EXPECT_EQ(b[16], '\x01');
}

TEST(WorkerProtocol, RoundTripsThroughTheReader) {
  FrameWriter w;
  w.int32(-6);
  w.int64(-1234567890123LL);
  w.string("héllo");
  w.string("");
  FrameReader r = reader_over(w.bytes());
  EXPECT_EQ(r.peek_int32(), -6);
  EXPECT_EQ(r.read_int32(), -6);
  EXPECT_EQ(r.read_int64(), -1234567890123LL);
  EXPECT_EQ(r.read_string(), "héllo");
  EXPECT_EQ(r.read_string(), "");
  EXPECT_EQ(r.position(), static_cast<int64_t>(w.bytes().size()));
}

TEST(WorkerProtocol, EndOfStreamIsACrashedWorker) {
  FrameWriter w;
  w.int32(7);
  FrameReader r = reader_over(w.bytes().substr(0, 2));
  try {
    r.read_int32();
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kPython);
    EXPECT_NE(e.message().find("exited unexpectedly"), std::string::npos);
  }
}

TEST(WorkerProtocol, InitMessageLayout) {
  InitMessage m;
  m.split_index = 3;
  m.python_version = "3.11";
  m.partition_id = 3;
  m.spark_files_dir = "/tmp";
  m.eval_type = 101;
  m.runner_conf = {{"spark.sql.session.timeZone", "UTC"}};
  m.eval_conf = {{"input_type", "{}"}};
  m.udfs.push_back({{0, 2}, {"PICKLE"}, 0, {}});
  FrameReader r = reader_over(encode_init_message(m));
  EXPECT_EQ(r.read_int32(), kStartOfInitMessage);
  int32_t length = r.read_int32();
  int64_t start = r.position();
  EXPECT_EQ(r.read_int32(), 3);
  EXPECT_EQ(r.read_string(), "3.11");
  std::string context = r.read_string();
  EXPECT_NE(context.find("\"partitionId\":3"), std::string::npos) << context;
  EXPECT_NE(context.find("\"resources\":{}"), std::string::npos) << context;
  EXPECT_EQ(r.read_string(), "/tmp");
  EXPECT_EQ(r.read_int32(), 0);  // includes
  char flag;
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 0);            // no broadcast decryption server
  EXPECT_EQ(r.read_int32(), 0);  // broadcast variables
  EXPECT_EQ(r.read_int32(), 101);
  EXPECT_EQ(r.read_int32(), 1);
  EXPECT_EQ(r.read_string(), "spark.sql.session.timeZone");
  EXPECT_EQ(r.read_string(), "UTC");
  EXPECT_EQ(r.read_int32(), 1);
  EXPECT_EQ(r.read_string(), "input_type");
  EXPECT_EQ(r.read_string(), "{}");
  EXPECT_EQ(r.read_int32(), 1);  // functions
  EXPECT_EQ(r.read_int32(), 2);  // arguments
  EXPECT_EQ(r.read_int32(), 0);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 0);
  EXPECT_EQ(r.read_int32(), 2);
  r.read_exact(&flag, 1);
  EXPECT_EQ(r.read_int32(), 1);  // chained commands
  EXPECT_EQ(r.read_string(), "PICKLE");
  EXPECT_EQ(r.read_int64(), 0);  // result id
  EXPECT_EQ(r.position() - start, length);
}

/// Reads the init message's common part up to its eval configuration; returns the eval type.
int32_t skip_init_header(FrameReader& r) {
  r.read_int32();   // split index
  r.read_string();  // python version
  r.read_string();  // task context
  r.read_string();  // files directory
  r.read_int32();   // includes
  char flag;
  r.read_exact(&flag, 1);
  r.read_int32();  // broadcast variables
  int32_t eval_type = r.read_int32();
  for (int pass = 0; pass < 2; ++pass)
    for (int32_t n = r.read_int32(); n > 0; --n) {
      r.read_string();
      r.read_string();
    }
  return eval_type;
}

TEST(WorkerProtocol, TableFunctionInitMessageLayout) {
  InitMessage m;
  m.eval_type = 301;
  m.eval_conf = {{"input_type", "{}"}};
  InitUdtf t;
  t.args = {1, 0};
  t.arg_names = {"", "key"};  // the second argument passed by keyword
  t.partition_child_indexes = {2};
  t.pickled_analyze_result = std::string("ANALYZED");
  t.handler = std::string("CLASS\0BYTES", 11);
  t.return_type_json = R"({"type":"struct","fields":[]})";
  t.name = "MyUDTF";
  m.udtf = t;
  m.udfs.push_back({{9}, {"IGNORED"}, 0, {}});  // table eval types send the UDTF alone
  FrameReader r = reader_over(encode_init_message(m));
  EXPECT_EQ(r.read_int32(), kStartOfInitMessage);
  int32_t length = r.read_int32();
  int64_t start = r.position();
  EXPECT_EQ(skip_init_header(r), 301);
  EXPECT_EQ(r.read_int32(), 2);  // arguments, each an offset and a keyword flag
  char flag;
  EXPECT_EQ(r.read_int32(), 1);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 0);
  EXPECT_EQ(r.read_int32(), 0);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(r.read_string(), "key");
  EXPECT_EQ(r.read_int32(), 1);  // partition child indexes
  EXPECT_EQ(r.read_int32(), 2);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 1);  // an analyze result follows
  EXPECT_EQ(r.read_string(), "ANALYZED");
  EXPECT_EQ(r.read_string(), std::string("CLASS\0BYTES", 11));
  EXPECT_EQ(r.read_string(), t.return_type_json);
  EXPECT_EQ(r.read_string(), "MyUDTF");
  EXPECT_EQ(r.position() - start, length);
}

TEST(WorkerProtocol, TableFunctionWithoutAnalyzeResult) {
  InitMessage m;
  m.eval_type = 300;
  InitUdtf t;
  t.handler = "H";
  t.name = "f";
  m.udtf = t;
  FrameReader r = reader_over(encode_init_message(m));
  r.read_int32();
  int32_t length = r.read_int32();
  int64_t start = r.position();
  EXPECT_EQ(skip_init_header(r), 300);
  EXPECT_EQ(r.read_int32(), 0);  // no arguments
  EXPECT_EQ(r.read_int32(), 0);  // no partition columns
  char flag;
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 0);  // no analyze result: the handler comes next
  EXPECT_EQ(r.read_string(), "H");
  EXPECT_EQ(r.read_string(), "");
  EXPECT_EQ(r.read_string(), "f");
  EXPECT_EQ(r.position() - start, length);
}

TEST(WorkerProtocol, TaskEnd) {
  FrameWriter w;
  for (int64_t v : {10, 20, 30, 5, 0, 0}) w.int64(v);
  w.int32(kEndOfDataSection);
  w.int32(1);
  w.string("accumulator");
  w.int32(kEndOfStream);
  FrameReader r = reader_over(w.bytes());
  TaskEnd end = read_task_end(r, kTimingData);
  EXPECT_EQ(end.boot_ms, 10);
  EXPECT_EQ(end.finish_ms, 30);
  EXPECT_EQ(end.accumulator_updates, 1);
  EXPECT_TRUE(end.reusable);

  FrameWriter not_reusable;
  for (int i = 0; i < 6; ++i) not_reusable.int64(0);
  not_reusable.int32(kEndOfDataSection);
  not_reusable.int32(0);
  not_reusable.int32(kEndOfDataSection);  // the worker did not read END_OF_STREAM
  FrameReader r2 = reader_over(not_reusable.bytes());
  EXPECT_FALSE(read_task_end(r2, kTimingData).reusable);
}

TEST(WorkerProtocol, TaskEndAfterAnExceptionIsThePythonError) {
  FrameWriter w;
  w.string("Traceback ...\nValueError: late failure");
  FrameReader r = reader_over(w.bytes());
  try {
    read_task_end(r, kPythonExceptionThrown);
    FAIL() << "expected the Python error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kPython);
    EXPECT_NE(std::string(e.what()).find("late failure"), std::string::npos);
  }
}

TEST(WorkerProtocol, KeywordArgumentsCarryTheirNames) {
  InitMessage m;
  m.eval_type = 100;
  m.udfs.push_back({{0, 1}, {"PICKLE"}, 0, {"", "b"}});
  FrameReader r = reader_over(encode_init_message(m));
  r.read_int32();   // START_OF_INIT_MESSAGE
  r.read_int32();   // length
  r.read_int32();   // split index
  r.read_string();  // Python version
  r.read_string();  // task context
  r.read_string();  // files directory
  EXPECT_EQ(r.read_int32(), 0);  // includes
  char flag;
  r.read_exact(&flag, 1);
  EXPECT_EQ(r.read_int32(), 0);  // broadcast variables
  EXPECT_EQ(r.read_int32(), 100);
  EXPECT_EQ(r.read_int32(), 0);  // runner settings
  EXPECT_EQ(r.read_int32(), 0);  // eval settings
  EXPECT_EQ(r.read_int32(), 1);  // functions
  EXPECT_EQ(r.read_int32(), 2);  // arguments
  EXPECT_EQ(r.read_int32(), 0);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 0);  // positional
  EXPECT_EQ(r.read_int32(), 1);
  r.read_exact(&flag, 1);
  EXPECT_EQ(flag, 1);  // by name
  EXPECT_EQ(r.read_string(), "b");
  EXPECT_EQ(r.read_int32(), 1);  // commands
  EXPECT_EQ(r.read_string(), "PICKLE");
}

TEST(WorkerProtocol, TaskContextListsTheGpusATaskHolds) {
  InitMessage m;
  m.gpu_addresses = {"0", "1"};
  m.udfs.push_back({{0}, {"PICKLE"}, 0, {}});
  FrameReader r = reader_over(encode_init_message(m));
  r.read_int32();  // START_OF_INIT_MESSAGE
  r.read_int32();  // length
  r.read_int32();  // split index
  r.read_string();  // Python version
  std::string context = r.read_string();
  EXPECT_NE(context.find("\"resources\":{\"gpu\":{\"name\":\"gpu\",\"addresses\":[\"0\",\"1\"]}}"),
            std::string::npos)
      << context;
}

}  // namespace
}  // namespace ember::udf
