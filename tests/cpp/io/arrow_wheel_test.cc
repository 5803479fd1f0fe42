// Arrow C++ comes from the pyarrow wheel, compiled by another compiler. These
// tests pin down that passing std::string and std::shared_ptr across that
// boundary works (same C++ ABI), and that IPC streams and Parquet files
// round-trip through the shared libraries.

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/reader.h>
#include <arrow/ipc/writer.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include <memory>
#include <string>

namespace {

std::shared_ptr<arrow::RecordBatch> MakeBatch() {
  arrow::Int64Builder ids;
  arrow::StringBuilder names;
  EXPECT_TRUE(ids.AppendValues({1, 2, 3}).ok());
  EXPECT_TRUE(names.Append("north").ok());
  EXPECT_TRUE(names.AppendNull().ok());
  EXPECT_TRUE(names.Append(std::string(100, 'x')).ok());  // not a short string
  auto schema = arrow::schema(
      {arrow::field("id", arrow::int64(), false), arrow::field("region", arrow::utf8())});
  return arrow::RecordBatch::Make(schema, 3,
                                  {ids.Finish().ValueOrDie(), names.Finish().ValueOrDie()});
}

TEST(ArrowWheel, VersionMatchesHeaders) {
  EXPECT_EQ(arrow::GetBuildInfo().version_major, ARROW_VERSION_MAJOR);
  EXPECT_EQ(arrow::GetBuildInfo().version_string, ARROW_VERSION_STRING);
}

TEST(ArrowWheel, StatusMessagesCrossTheLibraryBoundary) {
  arrow::Status status = arrow::Status::Invalid("bad ", std::string(40, 'y'));
  EXPECT_EQ(status.ToString(), "Invalid: bad " + std::string(40, 'y'));
}

TEST(ArrowWheel, IpcStreamRoundTrip) {
  auto batch = MakeBatch();
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = arrow::ipc::MakeStreamWriter(sink, batch->schema()).ValueOrDie();
  ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(writer->Close().ok());
  auto buffer = sink->Finish().ValueOrDie();
  EXPECT_GT(buffer->size(), 0);

  auto source = std::make_shared<arrow::io::BufferReader>(buffer);
  auto reader = arrow::ipc::RecordBatchStreamReader::Open(source).ValueOrDie();
  std::shared_ptr<arrow::RecordBatch> read;
  ASSERT_TRUE(reader->ReadNext(&read).ok());
  ASSERT_NE(read, nullptr);
  EXPECT_TRUE(read->Equals(*batch));
  EXPECT_EQ(read->schema()->field(1)->name(), "region");
}

TEST(ArrowWheel, ParquetRoundTrip) {
  auto table = arrow::Table::FromRecordBatches({MakeBatch()}).ValueOrDie();
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  ASSERT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 2).ok());
  auto buffer = sink->Finish().ValueOrDie();

  auto source = std::make_shared<arrow::io::BufferReader>(buffer);
  auto reader = parquet::arrow::OpenFile(source, arrow::default_memory_pool()).ValueOrDie();
  auto result = reader->ReadTable();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::shared_ptr<arrow::Table> read = *result;
  EXPECT_EQ(read->num_rows(), 3);
  EXPECT_TRUE(read->Equals(*table));
}

}  // namespace
