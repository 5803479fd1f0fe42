// Result batches as Arrow IPC streams, and Arrow IPC streams back to batches.

#include "connect/arrow_results.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <arrow/ipc/api.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace ember::connect {
namespace {

std::shared_ptr<arrow::Table> read_ipc(const std::string& bytes) {
  auto reader = arrow::ipc::RecordBatchStreamReader::Open(
                    std::make_shared<arrow::io::BufferReader>(arrow::Buffer::FromString(bytes)))
                    .ValueOrDie();
  return reader->ToTable().ValueOrDie();
}

Batch sample(int64_t rows) {
  ColumnBuilder id(DataType::long_()), name(DataType::string()), ts(DataType::timestamp());
  for (int64_t k = 0; k < rows; ++k) {
    id.append<int64_t>(k);
    if (k % 3 == 0) {
      name.append_null();
    } else {
      name.append_bytes("n" + std::to_string(k));
    }
    ts.append<int64_t>(k * 1000000);
  }
  return Batch({id.finish(), name.finish(), ts.finish()}, rows);
}

Schema sample_schema() {
  return {{"id", DataType::long_(), false, "{}"},
          {"name", DataType::string(), true, "{}"},
          {"ts", DataType::timestamp(), true, "{}"}};
}

TEST(ArrowResults, EncodesLikeSpark) {
  ArrowResultEncoder encoder(sample_schema(), "Etc/UTC", 10000, 4 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(sample(5), &chunks);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].row_count, 5);
  auto table = read_ipc(chunks[0].data);
  EXPECT_EQ(table->num_rows(), 5);
  EXPECT_EQ(table->schema()->field(0)->name(), "id");
  EXPECT_FALSE(table->schema()->field(0)->nullable());
  EXPECT_TRUE(table->schema()->field(1)->nullable());
  EXPECT_EQ(table->schema()->field(2)->type()->ToString(), "timestamp[us, tz=Etc/UTC]");
  auto names = std::static_pointer_cast<arrow::StringArray>(table->column(1)->chunk(0));
  EXPECT_TRUE(names->IsNull(0));
  EXPECT_EQ(names->GetString(1), "n1");
}

TEST(ArrowResults, RechunksByRowsAndBytes) {
  ArrowResultEncoder by_rows(sample_schema(), "UTC", 4, 4 << 20);
  std::vector<ArrowChunk> chunks;
  by_rows.add(sample(10), &chunks);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].row_count, 4);
  EXPECT_EQ(chunks[2].row_count, 2);
  int64_t total = 0;
  for (const auto& c : chunks) total += read_ipc(c.data)->num_rows();
  EXPECT_EQ(total, 10);
  // Each chunk is a complete stream whose values start where the previous one ended.
  auto second = read_ipc(chunks[1].data);
  EXPECT_EQ(std::static_pointer_cast<arrow::Int64Array>(second->column(0)->chunk(0))->Value(0), 4);

  ArrowResultEncoder by_bytes(sample_schema(), "UTC", 1000000, 64);
  chunks.clear();
  by_bytes.add(sample(100), &chunks);
  EXPECT_GT(chunks.size(), 10u);
}

TEST(ArrowResults, EmptyResultStillCarriesTheSchema) {
  ArrowResultEncoder encoder(sample_schema(), "UTC", 10, 1 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(sample(0), &chunks);
  EXPECT_TRUE(chunks.empty());
  ArrowChunk empty = encoder.empty();
  EXPECT_EQ(empty.row_count, 0);
  auto table = read_ipc(empty.data);
  EXPECT_EQ(table->num_rows(), 0);
  EXPECT_EQ(table->num_columns(), 3);
}

TEST(ArrowResults, DecodesWhatItEncodes) {
  ArrowResultEncoder encoder(sample_schema(), "UTC", 10, 1 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(sample(7), &chunks);
  DecodedArrow decoded = decode_arrow_stream(chunks[0].data);
  ASSERT_EQ(decoded.schema.size(), 3u);
  EXPECT_EQ(decoded.schema[2].type->id(), TypeId::kTimestamp);
  ASSERT_EQ(decoded.batches.size(), 1u);
  EXPECT_EQ(decoded.batches[0].num_rows, 7);
  EXPECT_EQ(decoded.batches[0].column(0)->values<int64_t>()[6], 6);
  EXPECT_TRUE(decoded.batches[0].column(1)->is_null(3));
  EXPECT_EQ(decoded.batches[0].column(1)->string_at(4), "n4");
}

TEST(ArrowResults, NormalisesLargeStringsAndOtherTimeUnits) {
  auto schema = arrow::schema({arrow::field("s", arrow::large_utf8()),
                               arrow::field("t", arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"))});
  arrow::LargeStringBuilder s;
  ASSERT_TRUE(s.Append("hello").ok());
  ASSERT_TRUE(s.AppendNull().ok());
  arrow::TimestampBuilder t(arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"),
                            arrow::default_memory_pool());
  ASSERT_TRUE(t.Append(1500).ok());
  ASSERT_TRUE(t.Append(2).ok());
  auto batch =
      arrow::RecordBatch::Make(schema, 2, {s.Finish().ValueOrDie(), t.Finish().ValueOrDie()});
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  auto writer = arrow::ipc::MakeStreamWriter(sink, schema).ValueOrDie();
  ASSERT_TRUE(writer->WriteRecordBatch(*batch).ok());
  ASSERT_TRUE(writer->Close().ok());
  std::string bytes = sink->Finish().ValueOrDie()->ToString();

  DecodedArrow decoded = decode_arrow_stream(bytes);
  EXPECT_EQ(decoded.schema[0].type->id(), TypeId::kString);
  EXPECT_EQ(decoded.schema[1].type->id(), TypeId::kTimestamp);
  EXPECT_EQ(decoded.batches[0].column(0)->string_at(0), "hello");
  EXPECT_EQ(decoded.batches[0].column(1)->values<int64_t>()[0], 1500000);
}

TEST(ArrowResults, MalformedStreamsAreErrorsNotCrashes) {
  EXPECT_THROW(decode_arrow_stream("garbage"), SparkError);
  ArrowResultEncoder encoder(sample_schema(), "UTC", 10, 1 << 20);
  std::vector<ArrowChunk> chunks;
  encoder.add(sample(7), &chunks);
  std::string truncated = chunks[0].data.substr(0, chunks[0].data.size() / 2);
  EXPECT_THROW(decode_arrow_stream(truncated), SparkError);
  std::string corrupted = chunks[0].data;
  for (size_t k = corrupted.size() / 3; k < corrupted.size() / 3 + 40 && k < corrupted.size();
       ++k) {
    corrupted[k] = static_cast<char>(0xFF);
  }
  try {
    decode_arrow_stream(corrupted);
  } catch (const SparkError&) {
  }
}

}  // namespace
}  // namespace ember::connect
