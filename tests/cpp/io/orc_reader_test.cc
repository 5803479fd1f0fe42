#include <arrow/api.h>
#include <arrow/util/key_value_metadata.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/config.h"
#include "common/error.h"
#include "io/data_sink.h"
#include "io/data_source.h"
#include "io/orc_reader.h"
#include "io/orc_types.h"

#if EMBER_HAVE_ORC
#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>
#endif

namespace ember::io {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<arrow::Field> with_attribute(std::shared_ptr<arrow::Field> f, const std::string& value) {
  return f->WithMetadata(arrow::key_value_metadata({kCatalystTypeAttribute}, {value}));
}

TEST(OrcTypesTest, TypeAttributesNameSparkTypesOnlyWhereTheyFit) {
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::int64()), "timestamp_ntz"))->id(),
            TypeId::kTimestampNtz);
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::int32()), "timestamp_ntz"))->id(),
            TypeId::kInt);
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::int32()), "interval year to month"))->id(),
            TypeId::kYearMonthInterval);
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::int64()), "interval day to second"))->id(),
            TypeId::kDayTimeInterval);
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::int64()), "no such type((("))->id(),
            TypeId::kLong);
  EXPECT_EQ(spark_type_of_orc(*with_attribute(arrow::field("a", arrow::utf8()), "string"))->id(), TypeId::kString);
  // ORC timestamps (nanoseconds through the adapter) and timestamps with local time zone.
  EXPECT_EQ(spark_type_of_orc(*arrow::field("a", arrow::timestamp(arrow::TimeUnit::NANO)))->id(),
            TypeId::kTimestamp);
  EXPECT_EQ(spark_type_of_orc(*arrow::field("a", arrow::timestamp(arrow::TimeUnit::NANO, "UTC")))->id(),
            TypeId::kTimestamp);
  const auto nested = spark_type_of_orc(*arrow::field(
      "a", arrow::list(arrow::struct_({with_attribute(arrow::field("t", arrow::int64()), "timestamp_ntz")}))));
  EXPECT_EQ(nested->simple_string(), "array<struct<t:timestamp_ntz>>");
}

TEST(OrcTypesTest, UnionsAreUnsupported) {
  auto u = arrow::dense_union({arrow::field("i", arrow::int32()), arrow::field("s", arrow::utf8())});
  try {
    spark_type_of_orc(*arrow::field("u", u));
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE");
  }
}

TEST(OrcTypesTest, WrittenFieldsCarrySparkTypeAttributes) {
  auto f = orc_field({"a", parse_data_type("array<struct<t:timestamp_ntz,m:map<string,interval year to month>>>"),
                      true, "{}"});
  ASSERT_NE(f, nullptr);
  const auto& element = static_cast<const arrow::ListType&>(*f->type()).value_field();
  const auto& t = element->type()->field(0);
  EXPECT_EQ(t->type()->id(), arrow::Type::INT64);
  EXPECT_EQ(t->metadata()->Get(kCatalystTypeAttribute).ValueOrDie(), "timestamp_ntz");
  const auto& m = static_cast<const arrow::MapType&>(*element->type()->field(1)->type());
  EXPECT_FALSE(m.key_field()->nullable());
  EXPECT_EQ(m.item_field()->type()->id(), arrow::Type::INT32);
  EXPECT_EQ(m.item_field()->metadata()->Get(kCatalystTypeAttribute).ValueOrDie(), "interval year to month");
  EXPECT_EQ(orc_field({"ts", DataType::timestamp(), true, "{}"})->type()->ToString(), "timestamp[us]");
  EXPECT_EQ(orc_field({"v", DataType::null(), true, "{}"}), nullptr);
  EXPECT_EQ(orc_field({"v", parse_data_type("array<void>"), true, "{}"}), nullptr);
}

TEST(OrcTypesTest, RelabelSharesBuffers) {
  arrow::ListBuilder list(arrow::default_memory_pool(),
                          std::make_shared<arrow::TimestampBuilder>(arrow::timestamp(arrow::TimeUnit::MICRO),
                                                                    arrow::default_memory_pool()));
  auto* values = static_cast<arrow::TimestampBuilder*>(list.value_builder());
  ASSERT_TRUE(list.Append().ok());
  ASSERT_TRUE(values->Append(7).ok());
  ASSERT_TRUE(values->AppendNull().ok());
  auto array = list.Finish().ValueOrDie();
  auto as_ints = relabel(array->data(), arrow::list(arrow::int64()));
  EXPECT_EQ(as_ints->type->ToString(), "list<item: int64>");
  EXPECT_EQ(as_ints->child_data[0]->buffers[1], array->data()->child_data[0]->buffers[1]);
  EXPECT_EQ(arrow::MakeArray(as_ints)->ToString(), "[\n  [\n    7,\n    null\n  ]\n]");
}

#if EMBER_HAVE_ORC

class OrcReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ember_orc_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// `rows` rows (k = 0.., s = "v<k>", null every 7th) in stripes of about `stripe_bytes`.
  std::string write_stripes(int64_t rows, int64_t stripe_bytes) {
    const std::string path = (dir_ / "stripes.orc").string();
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    arrow::adapters::orc::WriteOptions options;
    options.stripe_size = stripe_bytes;
    auto writer = arrow::adapters::orc::ORCFileWriter::Open(out.get(), options).ValueOrDie();
    auto schema = arrow::schema({arrow::field("k", arrow::int64()), arrow::field("s", arrow::utf8())});
    for (int64_t begin = 0; begin < rows; begin += 10000) {
      arrow::Int64Builder k;
      arrow::StringBuilder s;
      for (int64_t i = begin; i < std::min(rows, begin + 10000); ++i) {
        EXPECT_TRUE(k.Append(i).ok());
        EXPECT_TRUE((i % 7 == 0 ? s.AppendNull() : s.Append("v" + std::to_string(i))).ok());
      }
      auto batch = arrow::RecordBatch::Make(schema, k.length(), {k.Finish().ValueOrDie(), s.Finish().ValueOrDie()});
      EXPECT_TRUE(writer->Write(*batch).ok());
    }
    EXPECT_TRUE(writer->Close().ok());
    EXPECT_TRUE(out->Close().ok());
    return path;
  }

  std::unique_ptr<DataSourceReader> open(const std::string& path, TypePtr schema = nullptr) {
    ReadRequest r;
    r.format = "orc";
    r.paths = {path};
    r.config = &config_;
    r.user_schema = std::move(schema);
    return open_reader(r);
  }

  static std::string error_class_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const SparkError& e) {
      return e.error_class();
    }
    return "";
  }

  fs::path dir_;
  Config config_;
};

TEST_F(OrcReaderTest, OneSplitPerStripeStreamedInBoundedBatches) {
  const std::string path = write_stripes(300000, 64 * 1024);
  auto file = arrow::io::ReadableFile::Open(path).ValueOrDie();
  auto orc = arrow::adapters::orc::ORCFileReader::Open(file, arrow::default_memory_pool()).ValueOrDie();
  const int64_t stripes = orc->NumberOfStripes();
  ASSERT_GT(stripes, 2);

  auto reader = open(path);
  ASSERT_EQ(reader->num_splits(), static_cast<size_t>(stripes));
  EXPECT_EQ(reader->estimated_rows(), 300000.0);
  int64_t next = 0;
  for (size_t i = 0; i < reader->num_splits(); ++i) {
    const auto info = orc->GetStripeInformation(static_cast<int64_t>(i));
    EXPECT_EQ(next, info.first_row_id);
    // A stripe's rows belong to the Spark split holding its first byte.
    const auto block = reader->split_block(i);
    EXPECT_LE(block->start, info.offset);
    EXPECT_GT(block->start + block->length, info.offset);
    reader->read_split(i, {1, 0}, [&](Batch b) {
      EXPECT_LE(b.num_rows, 65536);
      ASSERT_EQ(b.num_columns(), 2u);
      for (int64_t r = 0; r < b.num_rows; ++r, ++next) {
        ASSERT_EQ(b.columns[1]->values<int64_t>()[r], next);
        if (next % 7 == 0) {
          EXPECT_TRUE(b.columns[0]->is_null(r));
        } else {
          EXPECT_EQ(b.columns[0]->string_at(r), "v" + std::to_string(next));
        }
      }
    });
  }
  EXPECT_EQ(next, 300000);
  int64_t counted = 0;
  for (size_t i = 0; i < reader->num_splits(); ++i)
    reader->read_split(i, {}, [&](Batch b) { counted += b.num_rows; });
  EXPECT_EQ(counted, 300000);
}

TEST_F(OrcReaderTest, UserSchemaMatchesNamesAndFillsMissingColumns) {
  const std::string path = write_stripes(10, 1 << 20);
  auto reader = open(path, parse_ddl_schema("K BIGINT, missing STRING, s BINARY"));
  ASSERT_EQ(reader->num_splits(), 1u);
  int64_t rows = 0;
  reader->read_split(0, {0, 1, 2}, [&](Batch b) {
    for (int64_t r = 0; r < b.num_rows; ++r, ++rows) {
      EXPECT_EQ(b.columns[0]->values<int64_t>()[r], rows);
      EXPECT_TRUE(b.columns[1]->is_null(r));
      if (rows % 7 != 0) {
        EXPECT_EQ(b.columns[2]->string_at(r), "v" + std::to_string(rows));
      }
    }
  });
  EXPECT_EQ(rows, 10);
  auto narrowing = open(path, parse_ddl_schema("k INT"));
  EXPECT_EQ(error_class_of([&] { narrowing->read_split(0, {0}, [](Batch) {}); }), "FAILED_READ_FILE.NO_HINT");
}

TEST_F(OrcReaderTest, UnreadableFilesNameTheError) {
  const std::string good = write_stripes(1000, 1 << 20);
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string bad = (dir_ / "truncated.orc").string();
  std::ofstream(bad, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(error_class_of([&] { open(bad); }), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER");
  // Under a user schema the relation opens and the read fails, as Spark's does.
  auto reader = open(bad, parse_ddl_schema("k BIGINT"));
  ASSERT_EQ(reader->num_splits(), 1u);
  EXPECT_EQ(error_class_of([&] { reader->read_split(0, {0}, [](Batch) {}); }), "FAILED_READ_FILE.NO_HINT");
  const std::string empty = (dir_ / "empty.orc").string();
  std::ofstream(empty, std::ios::binary).flush();
  EXPECT_EQ(error_class_of([&] { open(empty); }), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER");
}

TEST_F(OrcReaderTest, DecimalPrecisionArrowCannotHoldIsAFooterError) {
  // Found by the fuzz target: Arrow's adapter aborts the process converting an ORC decimal of a
  // precision past 38, so the tail's types are checked before it reads the schema.
  const std::string path = (dir_ / "decimal.orc").string();
  {
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    auto writer = arrow::adapters::orc::ORCFileWriter::Open(out.get()).ValueOrDie();  // uncompressed
    arrow::Decimal128Builder d(arrow::decimal128(10, 2));
    ASSERT_TRUE(d.Append(arrow::Decimal128(1234)).ok());
    auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("d", d.type())}), 1, {d.Finish().ValueOrDie()});
    ASSERT_TRUE(writer->Write(*batch).ok());
    ASSERT_TRUE(writer->Close().ok());
    ASSERT_TRUE(out->Close().ok());
  }
  EXPECT_EQ(open(path)->schema()[0].type->simple_string(), "decimal(10,2)");
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  // The footer's Type message: kind DECIMAL (14), maximum length 0, precision 10, scale 2.
  const std::string decimal_type("\x08\x0e\x20\x00\x28\x0a\x30\x02", 8);
  const size_t at = bytes.rfind(decimal_type);
  ASSERT_NE(at, std::string::npos);
  for (char precision : {'\x63', '\x01'}) {  // 99; 1 with scale 2
    bytes[at + 5] = precision;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    EXPECT_EQ(error_class_of([&] { open(path); }), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER");
  }
}

TEST_F(OrcReaderTest, FuzzFindingsAreSparkErrors) {
  // Inputs the ORC fuzz target found crashing the process (an abort in Arrow's type conversion;
  // a segmentation fault in ORC's row-index seek): each now reads, or fails as a Spark error.
  for (const char* name : {"decimal_precision_past_38.orc", "corrupt_row_index.orc"}) {
    const fs::path found = fs::path(EMBER_SOURCE_DIR) / "tests/fuzz/regressions/orc" / name;
    ASSERT_TRUE(fs::exists(found)) << found;
    const std::string path = (dir_ / name).string();
    fs::copy_file(found, path);
    const std::string error = error_class_of([&] {
      auto reader = open(path);
      std::vector<int> all;
      for (size_t c = 0; c < reader->schema().size(); ++c) all.push_back(static_cast<int>(c));
      for (size_t i = 0; i < reader->num_splits(); ++i) reader->read_split(i, all, [](Batch) {});
    });
    EXPECT_TRUE(error.empty() || error.rfind("FAILED_READ_FILE.", 0) == 0) << name << ": " << error;
  }
}

TEST_F(OrcReaderTest, EmptyFileKeepsItsSchema) {
  WriteRequest w;
  w.format = "orc";
  w.config = &config_;
  const Schema schema = parse_ddl_schema("a INT, b ARRAY<TIMESTAMP_NTZ>")->fields();
  auto sink = make_sink_format(w, schema);
  EXPECT_EQ(sink->extension(), ".zstd.orc");
  const std::string path = (dir_ / ("part" + sink->extension())).string();
  sink->open(path, schema)->close();
  auto reader = open(path);
  EXPECT_EQ(reader->num_splits(), 0u);
  EXPECT_EQ(DataType::struct_(reader->schema())->simple_string(), "struct<a:int,b:array<timestamp_ntz>>");
}

TEST_F(OrcReaderTest, TimestampsBefore1970WithFractionsAreRefused) {
  WriteRequest w;
  w.format = "orc";
  w.config = &config_;
  const Schema schema = parse_ddl_schema("t TIMESTAMP")->fields();
  auto sink = make_sink_format(w, schema);
  auto make = [&](int64_t micros) {
    Batch b;
    b.num_rows = 1;
    b.columns.push_back(Column::constant(DataType::timestamp(), Value::integer(micros), 1));
    return b;
  };
  auto whole = sink->open((dir_ / "whole.orc").string(), schema);
  whole->write(make(-2000000));
  whole->close();
  auto fraction = sink->open((dir_ / "fraction.orc").string(), schema);
  EXPECT_EQ(error_class_of([&] { fraction->write(make(-1500000)); }), "TASK_WRITE_FAILED");
  auto reader = open((dir_ / "whole.orc").string());
  reader->read_split(0, {0}, [](Batch b) { EXPECT_EQ(b.columns[0]->values<int64_t>()[0], -2000000); });
}

#else

TEST(OrcUnavailableTest, ReadingAndWritingSayOrcIsUnavailable) {
  EXPECT_FALSE(orc_available());
  ReadRequest r;
  r.format = "orc";
  r.paths = {fs::temp_directory_path().string()};
  try {
    open_reader(r);
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNSUPPORTED_FEATURE.ORC_UNAVAILABLE");
  }
}

#endif

}  // namespace
}  // namespace ember::io
