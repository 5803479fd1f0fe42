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
#include "io/orc_check.h"
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
  for (const char* name : {"decimal_precision_past_38.orc", "corrupt_row_index.orc", "huge_string_lengths.orc"}) {
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


std::vector<uint64_t> decode_rle(const std::vector<uint8_t>& bytes, bool v2, bool* ok) {
  std::vector<uint64_t> out;
  *ok = decode_orc_unsigned_rle(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), v2,
                                [&](uint64_t v) {
                                  out.push_back(v);
                                  return true;
                                });
  return out;
}

TEST(OrcCheckTest, DecodesEachRunLengthEncoding) {
  bool ok = false;
  // Version 2, the examples of ORC's specification: short repeat, direct, patched base, delta.
  EXPECT_EQ(decode_rle({0x0a, 0x27, 0x10}, true, &ok), std::vector<uint64_t>(5, 10000));
  EXPECT_TRUE(ok);
  EXPECT_EQ(decode_rle({0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, true, &ok),
            (std::vector<uint64_t>{23713, 43806, 57005, 48879}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(decode_rle({0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
                        0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8},
                       true, &ok),
            (std::vector<uint64_t>{2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110,
                                   2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190}));
  EXPECT_TRUE(ok);
  EXPECT_EQ(decode_rle({0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, true, &ok),
            (std::vector<uint64_t>{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}));
  EXPECT_TRUE(ok);
  // A fixed delta (width 0): 5, 8, 11.
  EXPECT_EQ(decode_rle({0xc0, 0x02, 0x05, 0x06}, true, &ok), (std::vector<uint64_t>{5, 8, 11}));
  EXPECT_TRUE(ok);
  // Version 1: a run of 3 + 97 values with delta -1 from 100, then literals 2 and 300.
  std::vector<uint64_t> run;
  for (int i = 0; i < 100; ++i) run.push_back(static_cast<uint64_t>(100 - i));
  run.push_back(2);
  run.push_back(300);
  EXPECT_EQ(decode_rle({0x61, 0xff, 0x64, 0xfe, 0x02, 0xac, 0x02}, false, &ok), run);
  EXPECT_TRUE(ok);
  // Truncated runs are malformed.
  decode_rle({0x5e, 0x03, 0x5c}, true, &ok);
  EXPECT_FALSE(ok);
  decode_rle({0xfe, 0x02}, false, &ok);
  EXPECT_FALSE(ok);
}

/// Every stripe of the file passes the check when all fields are read.
void expect_sound(const std::string& path) {
  auto file = arrow::io::ReadableFile::Open(path).ValueOrDie();
  auto reader = arrow::adapters::orc::ORCFileReader::Open(file, arrow::default_memory_pool()).ValueOrDie();
  std::vector<int> all;
  for (int i = 0; i < reader->ReadSchema().ValueOrDie()->num_fields(); ++i) all.push_back(i);
  ASSERT_GT(reader->NumberOfStripes(), 0);
  for (int64_t s = 0; s < reader->NumberOfStripes(); ++s)
    EXPECT_TRUE(orc_stripe_is_sound(*file, reader->GetSerializedFileTail(), s, all)) << path << " stripe " << s;
}

TEST_F(OrcReaderTest, WrittenFilesPassTheStripeCheck) {
  // Strings direct and in dictionaries, with nulls, nested in lists, in every codec.
  arrow::StringBuilder s, d;
  arrow::BinaryBuilder b;
  arrow::ListBuilder l(arrow::default_memory_pool(), std::make_shared<arrow::StringBuilder>());
  auto* lv = static_cast<arrow::StringBuilder*>(l.value_builder());
  const int64_t n = 30000;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE((i % 5 == 0 ? s.AppendNull() : s.Append(std::string(static_cast<size_t>(i % 37), 'x') + std::to_string(i))).ok());
    ASSERT_TRUE(d.Append("k" + std::to_string(i % 3)).ok());
    ASSERT_TRUE(b.Append(std::string(static_cast<size_t>(i % 3), 'b')).ok());
    ASSERT_TRUE(l.Append().ok());
    for (int64_t j = 0; j < i % 4; ++j) ASSERT_TRUE(lv->Append(std::to_string(i * j)).ok());
  }
  auto schema = arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("d", arrow::utf8()),
                               arrow::field("b", arrow::binary()), arrow::field("l", arrow::list(arrow::utf8()))});
  auto batch = arrow::RecordBatch::Make(schema, n, {s.Finish().ValueOrDie(), d.Finish().ValueOrDie(),
                                                    b.Finish().ValueOrDie(), l.Finish().ValueOrDie()});
  for (auto codec : {arrow::Compression::UNCOMPRESSED, arrow::Compression::SNAPPY, arrow::Compression::GZIP,
                     arrow::Compression::LZ4, arrow::Compression::ZSTD}) {
    for (double dictionary : {0.0, 1.0}) {
      const std::string path =
          (dir_ / ("f" + std::to_string(static_cast<int>(codec)) + "_" + std::to_string(dictionary) + ".orc")).string();
      auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
      arrow::adapters::orc::WriteOptions options;
      options.compression = codec;
      options.dictionary_key_size_threshold = dictionary;
      options.stripe_size = 64 * 1024;
      auto writer = arrow::adapters::orc::ORCFileWriter::Open(out.get(), options).ValueOrDie();
      const auto written = writer->Write(*batch);
      ASSERT_TRUE(written.ok()) << written.ToString();
      ASSERT_TRUE(writer->Close().ok());
      ASSERT_TRUE(out->Close().ok());
      expect_sound(path);
    }
  }
}

TEST_F(OrcReaderTest, StringLengthsPastTheirDataAreAReadError) {
  // A string column's length stream rewritten to claim 2^50 bytes a value: ORC's decoder
  // allocates their sum without checking the allocation, then writes through it.
  const fs::path found = fs::path(EMBER_SOURCE_DIR) / "tests/fuzz/regressions/orc/huge_string_lengths.orc";
  const std::string path = (dir_ / "huge.orc").string();
  fs::copy_file(found, path);
  auto reader = open(path);
  ASSERT_EQ(reader->num_splits(), 1u);
  try {
    reader->read_split(0, {0}, [](Batch) {});
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "FAILED_READ_FILE.NO_HINT");
    EXPECT_NE(std::string(e.what()).find(file_uri(path)), std::string::npos) << e.what();
  }
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
