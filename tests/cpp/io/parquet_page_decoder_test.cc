// Ember's Parquet page decoder against Arrow's reader: files written by Arrow C++ with the
// settings pyarrow offers (data page v1 and v2, dictionary and plain, compression, small pages,
// dictionaries that overflow to plain, nulls in runs and scattered, all-null and required
// columns) read with spark.ember.parquet.nativeDecoder on and off give equal batches.

#include "io/parquet_page_decoder.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/util/compression.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>

#include "common/config.h"
#include "io/data_source.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

struct WriteSettings {
  parquet::ParquetDataPageVersion page_version = parquet::ParquetDataPageVersion::V1;
  bool dictionary = true;
  arrow::Compression::type compression = arrow::Compression::SNAPPY;
  int64_t page_bytes = 1024 * 1024;
  int64_t dictionary_page_limit = 1024 * 1024;
  int64_t row_group_rows = 3000;
};

std::string settings_name(const WriteSettings& s) {
  return std::string(s.page_version == parquet::ParquetDataPageVersion::V1 ? "v1" : "v2") +
         (s.dictionary ? "_dict" : "_plain") + "_" +
         arrow::util::Codec::GetCodecAsString(s.compression) + "_page" +
         std::to_string(s.page_bytes) + "_dictlimit" + std::to_string(s.dictionary_page_limit) +
         "_rg" + std::to_string(s.row_group_rows);
}

/// Whether row i of a column with `pattern` is null: 0 never, 1 scattered (about a fifth), 2 in
/// long runs, 3 always.
bool is_null_row(int pattern, int64_t i, std::mt19937& rng) {
  switch (pattern) {
    case 0:
      return false;
    case 1:
      return rng() % 5 == 0;
    case 2:
      return (i / 700) % 3 == 1;
    default:
      return true;
  }
}

/// A table with a column of every type the decoder handles (each nullable with nulls of some
/// pattern, or required), plus columns left to Arrow (unsigned, decimal, a list).
std::shared_ptr<arrow::Table> make_table(int64_t rows, uint32_t seed) {
  std::mt19937 rng(seed);
  arrow::FieldVector fields;
  arrow::ArrayVector arrays;
  auto add = [&](const std::string& name, const std::shared_ptr<arrow::DataType>& type,
                 bool nullable, auto&& builder, auto&& value) {
    for (int pattern = nullable ? 0 : 0; pattern < (nullable ? 4 : 1); ++pattern) {
      builder.Reset();
      for (int64_t i = 0; i < rows; ++i) {
        if (nullable && is_null_row(pattern, i, rng)) {
          EXPECT_TRUE(builder.AppendNull().ok());
        } else {
          EXPECT_TRUE(builder.Append(value(i)).ok());
        }
      }
      fields.push_back(arrow::field(name + "_" + std::to_string(pattern), type, nullable));
      arrays.push_back(builder.Finish().ValueOrDie());
    }
  };
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  {
    arrow::BooleanBuilder b;
    add("bool", arrow::boolean(), true, b, [&](int64_t) { return uniform(0, 1) == 1; });
  }
  {
    arrow::Int8Builder b;
    add("i8", arrow::int8(), true, b,
        [&](int64_t) { return static_cast<int8_t>(uniform(-128, 127)); });
  }
  {
    arrow::Int16Builder b;
    add("i16", arrow::int16(), true, b,
        [&](int64_t) { return static_cast<int16_t>(uniform(-30000, 30000)); });
  }
  {
    arrow::Int32Builder b;
    add("i32", arrow::int32(), true, b,
        [&](int64_t) { return static_cast<int32_t>(uniform(INT32_MIN, INT32_MAX)); });
    add("i32_low", arrow::int32(), true, b,
        [&](int64_t) { return static_cast<int32_t>(uniform(0, 40)); });
    add("i32_req", arrow::int32(), false, b,
        [&](int64_t i) { return static_cast<int32_t>(i % 17); });
  }
  {
    arrow::Int64Builder b;
    add("i64", arrow::int64(), true, b, [&](int64_t) { return uniform(INT64_MIN, INT64_MAX); });
    add("i64_low", arrow::int64(), true, b, [&](int64_t) { return uniform(-5, 5); });
  }
  {
    arrow::FloatBuilder b;
    add("f32", arrow::float32(), true, b, [&](int64_t i) {
      return i % 97 == 0   ? std::nanf("")
             : i % 89 == 0 ? -0.0f
                           : static_cast<float>(uniform(-1000, 1000)) / 8;
    });
  }
  {
    arrow::DoubleBuilder b;
    add("f64", arrow::float64(), true, b, [&](int64_t i) {
      return i % 97 == 0 ? std::nan("") : static_cast<double>(uniform(-100000, 100000)) / 3;
    });
    add("f64_low", arrow::float64(), true, b,
        [&](int64_t) { return static_cast<double>(uniform(0, 9)) / 2; });
  }
  {
    arrow::Date32Builder b;
    add("date", arrow::date32(), true, b,
        [&](int64_t) { return static_cast<int32_t>(uniform(-800000, 2900000)); });
  }
  {
    arrow::TimestampBuilder utc(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                arrow::default_memory_pool());
    add("ts_us", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), true, utc,
        [&](int64_t) { return uniform(-(int64_t{1} << 52), int64_t{1} << 52); });
    arrow::TimestampBuilder ntz(arrow::timestamp(arrow::TimeUnit::MICRO),
                                arrow::default_memory_pool());
    add("ts_ntz", arrow::timestamp(arrow::TimeUnit::MICRO), true, ntz,
        [&](int64_t) { return uniform(-(int64_t{1} << 52), int64_t{1} << 52); });
    arrow::TimestampBuilder ms(arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"),
                               arrow::default_memory_pool());
    add("ts_ms", arrow::timestamp(arrow::TimeUnit::MILLI, "UTC"), true, ms,
        [&](int64_t) { return uniform(-(int64_t{1} << 42), int64_t{1} << 42); });
  }
  {
    arrow::StringBuilder b;
    add("s_low", arrow::utf8(), true, b,
        [&](int64_t) { return "id" + std::to_string(uniform(1, 100)); });
    add("s_high", arrow::utf8(), true, b, [&](int64_t i) {
      return std::string(static_cast<size_t>(i % 13), 'x') + std::to_string(uniform(0, 1 << 30));
    });
    add("s_req", arrow::utf8(), false, b, [&](int64_t i) { return "r" + std::to_string(i % 50); });
    add("s_empty", arrow::utf8(), true, b,
        [&](int64_t i) { return i % 3 == 0 ? std::string() : std::string("e"); });
  }
  {
    arrow::BinaryBuilder b;
    add("bin", arrow::binary(), true, b, [&](int64_t) {
      std::string v(static_cast<size_t>(uniform(0, 9)), '\0');
      for (auto& c : v) c = static_cast<char>(uniform(0, 255));
      return v;
    });
  }
  // Left to Arrow: unsigned integers, decimals, lists.
  {
    arrow::UInt32Builder b;
    add("u32", arrow::uint32(), true, b,
        [&](int64_t) { return static_cast<uint32_t>(uniform(0, UINT32_MAX)); });
  }
  {
    arrow::Decimal128Builder b(arrow::decimal128(12, 2));
    add("dec", arrow::decimal128(12, 2), true, b,
        [&](int64_t) { return arrow::Decimal128(uniform(-1000000000, 1000000000)); });
  }
  {
    auto values = std::make_shared<arrow::Int32Builder>();
    arrow::ListBuilder b(arrow::default_memory_pool(), values);
    for (int64_t i = 0; i < rows; ++i) {
      if (i % 7 == 0) {
        EXPECT_TRUE(b.AppendNull().ok());
        continue;
      }
      EXPECT_TRUE(b.Append().ok());
      for (int64_t k = 0; k < i % 4; ++k)
        EXPECT_TRUE(values->Append(static_cast<int32_t>(i + k)).ok());
    }
    fields.push_back(arrow::field("list", arrow::list(arrow::int32())));
    arrays.push_back(b.Finish().ValueOrDie());
  }
  return arrow::Table::Make(arrow::schema(fields), arrays);
}

class ParquetPageDecoderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ember_page_decoder_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const arrow::Table& table, const WriteSettings& s) {
    const std::string path = (dir_ / (settings_name(s) + ".parquet")).string();
    parquet::WriterProperties::Builder props;
    props.data_page_version(s.page_version)
        ->compression(s.compression)
        ->data_pagesize(s.page_bytes)
        ->dictionary_pagesize_limit(s.dictionary_page_limit)
        ->write_batch_size(std::min<int64_t>(1024, s.page_bytes));
    if (s.dictionary) {
      props.enable_dictionary();
    } else {
      props.disable_dictionary();
    }
    auto arrow_props = parquet::ArrowWriterProperties::Builder().store_schema()->build();
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    EXPECT_TRUE(parquet::arrow::WriteTable(table, arrow::default_memory_pool(), out,
                                           s.row_group_rows, props.build(), arrow_props)
                    .ok());
    EXPECT_TRUE(out->Close().ok());
    return path;
  }

  /// Every batch of every split of `path`, projected on `projection` (all columns when empty).
  std::vector<Batch> read_all(const std::string& path, bool native,
                              std::vector<int> projection = {}) {
    Config config;
    config.set("spark.ember.parquet.nativeDecoder", native ? "true" : "false");
    ReadRequest r;
    r.format = "parquet";
    r.paths = {path};
    r.config = &config;
    auto reader = open_reader(r);
    if (projection.empty()) {
      for (size_t i = 0; i < reader->schema().size(); ++i)
        projection.push_back(static_cast<int>(i));
    }
    std::vector<Batch> out;
    for (size_t i = 0; i < reader->num_splits(); ++i)
      reader->read_split(i, projection, [&](Batch b) { out.push_back(std::move(b)); });
    return out;
  }

  fs::path dir_;
};

/// Equal types, lengths, nulls and valid values (fixed-width values compared as bytes, so NaNs
/// and -0.0 must match exactly; nested values through Value).
void expect_equal_columns(const Column& want, const Column& got, const std::string& where) {
  ASSERT_TRUE(want.type()->equals(*got.type())) << where;
  ASSERT_EQ(want.length(), got.length()) << where;
  ASSERT_EQ(want.null_count(), got.null_count()) << where;
  const DataType& t = *want.type();
  for (int64_t i = 0; i < want.length(); ++i) {
    ASSERT_EQ(want.is_valid(i), got.is_valid(i)) << where << " row " << i;
    if (!want.is_valid(i)) continue;
    if (t.id() == TypeId::kString || t.id() == TypeId::kBinary) {
      ASSERT_EQ(want.string_at(i), got.string_at(i)) << where << " row " << i;
    } else if (t.id() == TypeId::kBoolean) {
      ASSERT_EQ(want.bool_at(i), got.bool_at(i)) << where << " row " << i;
    } else if (t.is_fixed_width() && t.byte_width() > 0) {
      const int w = t.byte_width();
      ASSERT_EQ(std::memcmp(want.values<uint8_t>() + i * w, got.values<uint8_t>() + i * w, w), 0)
          << where << " row " << i;
    } else {
      ASSERT_TRUE(want.value_at(i) == got.value_at(i)) << where << " row " << i;
    }
  }
}

void expect_equal_batches(const std::vector<Batch>& want, const std::vector<Batch>& got,
                          const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t b = 0; b < want.size(); ++b) {
    ASSERT_EQ(want[b].num_rows, got[b].num_rows) << what;
    ASSERT_EQ(want[b].num_columns(), got[b].num_columns()) << what;
    for (size_t c = 0; c < want[b].num_columns(); ++c) {
      expect_equal_columns(*want[b].column(c), *got[b].column(c),
                           what + " batch " + std::to_string(b) + " column " + std::to_string(c));
      // A string column read as a dictionary by Arrow is one here too.
      EXPECT_EQ(want[b].column(c)->dictionary_codes() != nullptr,
                got[b].column(c)->dictionary_codes() != nullptr)
          << what << " batch " << b << " column " << c;
    }
  }
}

/// The number of the file's leaf columns the native decoder takes in the first row group.
int native_columns(const std::string& path) {
  auto file = arrow::io::ReadableFile::Open(path).ValueOrDie();
  auto reader = parquet::arrow::FileReader::Make(arrow::default_memory_pool(),
                                                 parquet::ParquetFileReader::Open(file))
                    .ValueOrDie();
  const auto& manifest = reader->manifest();
  auto md = reader->parquet_reader()->metadata();
  int count = 0;
  for (const auto& f : manifest.schema_fields) {
    if (f.column_index < 0 || !f.children.empty()) continue;
    const arrow::DataType& t = *f.field->type();
    TypePtr type;
    switch (t.id()) {
      case arrow::Type::BOOL:
        type = DataType::boolean();
        break;
      case arrow::Type::INT8:
        type = DataType::byte();
        break;
      case arrow::Type::INT16:
        type = DataType::short_();
        break;
      case arrow::Type::INT32:
        type = DataType::int_();
        break;
      case arrow::Type::INT64:
        type = DataType::long_();
        break;
      case arrow::Type::FLOAT:
        type = DataType::float_();
        break;
      case arrow::Type::DOUBLE:
        type = DataType::double_();
        break;
      case arrow::Type::DATE32:
        type = DataType::date();
        break;
      case arrow::Type::TIMESTAMP:
        type = DataType::timestamp();
        break;
      case arrow::Type::STRING:
        type = DataType::string();
        break;
      case arrow::Type::BINARY:
        type = DataType::binary();
        break;
      default:
        continue;
    }
    if (native_value_kind(*md->schema()->Column(f.column_index),
                          *md->RowGroup(0)->ColumnChunk(f.column_index), t, *type)) {
      ++count;
    }
  }
  return count;
}

TEST_F(ParquetPageDecoderTest, NativeAndArrowReadsAreEqual) {
  const auto table = make_table(7000, 7);
  std::vector<WriteSettings> all;
  for (auto version : {parquet::ParquetDataPageVersion::V1, parquet::ParquetDataPageVersion::V2}) {
    for (bool dictionary : {true, false}) {
      for (auto codec : {arrow::Compression::SNAPPY, arrow::Compression::ZSTD,
                         arrow::Compression::UNCOMPRESSED}) {
        WriteSettings s;
        s.page_version = version;
        s.dictionary = dictionary;
        s.compression = codec;
        all.push_back(s);
      }
      // Small pages, and a dictionary that overflows to plain pages within a chunk.
      WriteSettings small;
      small.page_version = version;
      small.dictionary = dictionary;
      small.page_bytes = 700;
      small.dictionary_page_limit = 2000;
      all.push_back(small);
    }
  }
  for (const WriteSettings& s : all) {
    const std::string path = write(*table, s);
    // Every column but the unsigned, decimal and list ones (4 + 4 + 1) is decoded natively.
    EXPECT_EQ(native_columns(path), table->num_columns() - 9) << settings_name(s);
    expect_equal_batches(read_all(path, false), read_all(path, true), settings_name(s));
  }
}

TEST_F(ParquetPageDecoderTest, BatchesSpanPagesOfLargeRowGroups) {
  // Row groups larger than a batch: batches end inside pages and pages inside batches.
  const auto table = make_table(150000, 11);
  for (bool dictionary : {true, false}) {
    WriteSettings s;
    s.dictionary = dictionary;
    s.row_group_rows = 100000;
    s.page_bytes = 64 * 1024;
    s.dictionary_page_limit = 64 * 1024;
    s.page_version =
        dictionary ? parquet::ParquetDataPageVersion::V1 : parquet::ParquetDataPageVersion::V2;
    const std::string path = write(*table, s);
    auto native = read_all(path, true);
    ASSERT_EQ(native.size(), 3u);  // 65536 + 34464 rows, then 50000 rows
    EXPECT_EQ(native[0].num_rows, 65536);
    expect_equal_batches(read_all(path, false), native, settings_name(s));
  }
}

TEST_F(ParquetPageDecoderTest, ProjectionsMixNativeAndArrowColumns) {
  const auto table = make_table(5000, 3);
  const std::string path = write(*table, WriteSettings{});
  const int n = table->num_columns();
  // Reordered, repeated, and mixing columns left to Arrow (the last ones) with native ones.
  const std::vector<int> projection = {n - 1, 0, 5, 5, n - 3, 30, 2};
  expect_equal_batches(read_all(path, false, projection), read_all(path, true, projection),
                       "projection");
}

TEST_F(ParquetPageDecoderTest, PlainPagesInAChunkReadAsADictionary) {
  // A writer without page encoding statistics gives no sign of its dictionary overflowing, so a
  // chunk decoded as dictionary codes may meet plain pages; the batches holding them become
  // plain strings (the rows of the dictionary pages before them written out), equal to what
  // Arrow reads.
  const auto table = make_table(7000, 5);
  WriteSettings s;
  s.page_bytes = 700;
  s.dictionary_page_limit = 2000;
  const std::string path = write(*table, s);
  const int field = table->schema()->GetFieldIndex("s_high_1");
  ASSERT_GE(field, 0);
  const auto want = read_all(path, false, {field});
  auto file = parquet::ParquetFileReader::OpenFile(path);
  const auto md = file->metadata();
  size_t b = 0;
  bool plain_batch = false;
  for (int g = 0; g < md->num_row_groups(); ++g) {
    ParquetChunkDecoder decoder(file->RowGroup(g)->GetColumnPageReader(field),
                                *md->schema()->Column(field), NativeValueKind::kBytes,
                                DataType::string(), true);
    for (int64_t done = 0; done < md->RowGroup(g)->num_rows(); done += want[b++].num_rows) {
      ASSERT_LT(b, want.size());
      ColumnPtr got = decoder.next(want[b].num_rows);
      expect_equal_columns(*want[b].column(0), *got, "batch " + std::to_string(b));
      plain_batch |= got->dictionary_codes() == nullptr;
    }
  }
  EXPECT_EQ(b, want.size());
  EXPECT_TRUE(plain_batch);
}

}  // namespace
}  // namespace ember::io
