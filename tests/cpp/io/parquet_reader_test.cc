#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/io/file.h>
#include <gtest/gtest.h>
#include <parquet/arrow/writer.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "common/config.h"
#include "common/error.h"
#include "io/arrow_memory.h"
#include "io/data_source.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

class ParquetReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ember_parquet_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Four row groups of 100 rows: k = 0..399, s = "s000".."s399", n null in group 2.
  std::string write_groups() {
    arrow::Int64Builder k, n;
    arrow::StringBuilder s;
    for (int i = 0; i < 400; ++i) {
      EXPECT_TRUE(k.Append(i).ok());
      char buf[8];
      std::snprintf(buf, sizeof buf, "s%03d", i);
      EXPECT_TRUE(s.Append(buf).ok());
      EXPECT_TRUE((i / 100 == 2 ? n.AppendNull() : n.Append(i)).ok());
    }
    auto schema = arrow::schema({arrow::field("k", arrow::int64()), arrow::field("s", arrow::utf8()),
                                 arrow::field("n", arrow::int64())});
    auto table = arrow::Table::Make(schema, {k.Finish().ValueOrDie(), s.Finish().ValueOrDie(),
                                             n.Finish().ValueOrDie()});
    const std::string path = (dir_ / "groups.parquet").string();
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    EXPECT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 100).ok());
    EXPECT_TRUE(out->Close().ok());
    return path;
  }

  std::unique_ptr<DataSourceReader> open(const std::string& path) {
    ReadRequest r;
    r.format = "parquet";
    r.paths = {path};
    r.config = &config_;
    return open_reader(r);
  }

  std::vector<bool> matches(const DataSourceReader& reader, std::vector<ScanPredicate> preds) {
    std::vector<bool> out;
    for (size_t i = 0; i < reader.num_splits(); ++i) out.push_back(reader.split_may_match(i, preds));
    return out;
  }

  fs::path dir_;
  Config config_;
};

using Op = ScanPredicate::Op;

TEST_F(ParquetReaderTest, SchemaAndSplitsPerRowGroup) {
  auto reader = open(write_groups());
  ASSERT_EQ(reader->schema().size(), 3u);
  EXPECT_EQ(reader->schema()[0].type->simple_string(), "bigint");
  EXPECT_EQ(reader->schema()[1].type->simple_string(), "string");
  EXPECT_TRUE(reader->schema()[0].nullable);
  EXPECT_EQ(reader->num_splits(), 4u);
}

TEST_F(ParquetReaderTest, ProjectionReadsOnlyRequestedColumns) {
  auto reader = open(write_groups());
  int64_t rows = 0;
  reader->read_split(3, {1}, [&](Batch b) {
    ASSERT_EQ(b.num_columns(), 1u);
    EXPECT_EQ(b.columns[0]->string_at(0), "s300");
    rows += b.num_rows;
  });
  EXPECT_EQ(rows, 100);
  rows = 0;
  reader->read_split(0, {}, [&](Batch b) { rows += b.num_rows; });
  EXPECT_EQ(rows, 100);
}

TEST_F(ParquetReaderTest, RowIndexPastTheSchemaCountsRowsWithinTheFile) {
  // The projection index one past the schema gives each row's position in its file (the
  // row_index of the `_metadata` column), wherever the caller puts it.
  auto reader = open(write_groups());
  std::vector<int64_t> index, keys;
  reader->read_split(2, {3, 0}, [&](Batch b) {
    ASSERT_EQ(b.num_columns(), 2u);
    for (int64_t r = 0; r < b.num_rows; ++r) {
      index.push_back(b.columns[0]->values<int64_t>()[r]);
      keys.push_back(b.columns[1]->values<int64_t>()[r]);
    }
  });
  ASSERT_EQ(index.size(), 100u);
  EXPECT_EQ(index.front(), 200);
  EXPECT_EQ(index.back(), 299);
  EXPECT_EQ(index, keys);
  int64_t rows = 0, first = -1;
  reader->read_split(1, {3}, [&](Batch b) {
    ASSERT_EQ(b.num_columns(), 1u);
    if (first < 0) first = b.columns[0]->values<int64_t>()[0];
    rows += b.num_rows;
  });
  EXPECT_EQ(rows, 100);
  EXPECT_EQ(first, 100);
}

TEST_F(ParquetReaderTest, DictionaryEncodedStringsDecodeToPlainColumns) {
  // Strings Parquet dictionary-encodes (a few distinct values, nulls, values longer than 16
  // bytes, empty ones) and a column whose dictionary overflows into plain pages; binary too.
  arrow::StringBuilder s, wide;
  arrow::BinaryBuilder b;
  std::vector<std::string> expect_s, expect_wide, expect_b;
  for (int i = 0; i < 3000; ++i) {
    const std::string v = i % 7 == 0 ? "" : i % 5 == 0 ? "a value longer than sixteen bytes " + std::to_string(i % 3)
                                                       : "v" + std::to_string(i % 4);
    if (i % 11 == 0) {
      EXPECT_TRUE(s.AppendNull().ok());
      expect_s.push_back("<null>");
    } else {
      EXPECT_TRUE(s.Append(v).ok());
      expect_s.push_back(v);
    }
    const std::string u = "unique-" + std::to_string(i) + std::string(static_cast<size_t>(i % 40), 'x');
    EXPECT_TRUE(wide.Append(u).ok());
    expect_wide.push_back(u);
    EXPECT_TRUE(b.Append(v).ok());
    expect_b.push_back(v);
  }
  auto schema = arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("wide", arrow::utf8()),
                               arrow::field("b", arrow::binary())});
  auto table = arrow::Table::Make(schema, {s.Finish().ValueOrDie(), wide.Finish().ValueOrDie(),
                                           b.Finish().ValueOrDie()});
  const std::string path = (dir_ / "dict.parquet").string();
  auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
  auto props = parquet::WriterProperties::Builder().dictionary_pagesize_limit(4096)->build();
  EXPECT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 1000, props).ok());
  EXPECT_TRUE(out->Close().ok());

  auto reader = open(path);
  ASSERT_EQ(reader->num_splits(), 3u);
  EXPECT_EQ(reader->schema()[2].type->simple_string(), "binary");
  std::vector<std::string> got_s, got_wide, got_b;
  for (size_t split = 0; split < reader->num_splits(); ++split) {
    reader->read_split(split, {0, 1, 2}, [&](Batch batch) {
      for (int64_t i = 0; i < batch.num_rows; ++i) {
        got_s.push_back(batch.columns[0]->is_valid(i) ? std::string(batch.columns[0]->string_at(i)) : "<null>");
        got_wide.push_back(std::string(batch.columns[1]->string_at(i)));
        got_b.push_back(std::string(batch.columns[2]->string_at(i)));
      }
    });
  }
  EXPECT_EQ(got_s, expect_s);
  EXPECT_EQ(got_wide, expect_wide);
  EXPECT_EQ(got_b, expect_b);
}

TEST_F(ParquetReaderTest, DictionaryStringNullsSurviveRowCountsOfAnyLength) {
  // Row groups whose row counts are not multiples of 8: the validity bitmap's last byte is
  // partly used, and the bits past the last row must stay clear.
  arrow::StringBuilder s;
  std::vector<bool> valid;
  for (int i = 0; i < 2011; ++i) {
    valid.push_back(i % 3 != 0);
    EXPECT_TRUE((valid.back() ? s.Append("v" + std::to_string(i % 5)) : s.AppendNull()).ok());
  }
  auto table = arrow::Table::Make(arrow::schema({arrow::field("s", arrow::utf8())}), {s.Finish().ValueOrDie()});
  const std::string path = (dir_ / "nulls.parquet").string();
  auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
  EXPECT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 1005).ok());
  EXPECT_TRUE(out->Close().ok());

  auto reader = open(path);
  ASSERT_EQ(reader->num_splits(), 3u);
  size_t row = 0;
  for (size_t split = 0; split < reader->num_splits(); ++split) {
    reader->read_split(split, {0}, [&](Batch batch) {
      int64_t nulls = 0;
      for (int64_t i = 0; i < batch.num_rows; ++i, ++row) {
        ASSERT_EQ(batch.columns[0]->is_valid(i), valid[row]) << "row " << row;
        if (valid[row]) {
          EXPECT_EQ(batch.columns[0]->string_at(i), "v" + std::to_string(row % 5));
        }
        nulls += valid[row] ? 0 : 1;
      }
      EXPECT_EQ(batch.columns[0]->null_count(), nulls);
      const uint8_t* bits = batch.columns[0]->validity_bits();
      ASSERT_NE(bits, nullptr);
      if (batch.num_rows % 8 != 0) {
        EXPECT_EQ(bits[batch.num_rows / 8] >> (batch.num_rows % 8), 0);
      }
    });
  }
  EXPECT_EQ(row, valid.size());
}

TEST_F(ParquetReaderTest, RowGroupStatisticsPruneSplits) {
  auto reader = open(write_groups());
  EXPECT_EQ(matches(*reader, {{0, Op::kGe, Value::integer(250)}}),
            (std::vector<bool>{false, false, true, true}));
  EXPECT_EQ(matches(*reader, {{0, Op::kLt, Value::integer(100)}}),
            (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(matches(*reader, {{0, Op::kEq, Value::integer(199)}}),
            (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(matches(*reader, {{1, Op::kEq, Value::bytes("s123")}}),
            (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(matches(*reader, {{1, Op::kGt, Value::bytes("s399")}}),
            (std::vector<bool>{false, false, false, false}));
  // Null tests use the null counts; a comparison never holds in an all-null group.
  EXPECT_EQ(matches(*reader, {{2, Op::kIsNull, Value()}}),
            (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(matches(*reader, {{2, Op::kGt, Value::integer(-1)}}),
            (std::vector<bool>{true, true, false, true}));
  // Conjunction.
  EXPECT_EQ(matches(*reader, {{0, Op::kGe, Value::integer(100)}, {0, Op::kLe, Value::integer(150)}}),
            (std::vector<bool>{false, true, false, false}));
}

// String columns whose chunks are all dictionary pages read through their dictionary; values,
// nulls and long values come out as written, as do those of a chunk that fell back to plain
// pages, whatever string type the stored Arrow schema names.
TEST_F(ParquetReaderTest, DictionaryAndPlainStringChunksReadAlike) {
  const std::vector<std::string> words = {"A", "", "DELIVER IN PERSON",
                                          "a value longer than thirty-two bytes, copied whole"};
  for (const auto& view : {arrow::utf8_view(), arrow::utf8()}) {
    arrow::StringBuilder low, high;
    std::vector<std::string> expect_low, expect_high;
    for (int i = 0; i < 3000; ++i) {
      if (i % 7 == 3) {
        ASSERT_TRUE(low.AppendNull().ok());
        expect_low.push_back("<null>");
      } else {
        // The long value only in the first row group: the others decode as short values.
        const std::string& w = words[static_cast<size_t>(i) % (i < 1000 ? words.size() : words.size() - 1)];
        ASSERT_TRUE(low.Append(w).ok());
        expect_low.push_back(w);
      }
      expect_high.push_back("unique value " + std::to_string(i * 7919));
      ASSERT_TRUE(high.Append(expect_high.back()).ok());
    }
    auto low_array = arrow::compute::Cast(*low.Finish().ValueOrDie(), view).ValueOrDie();
    auto high_array = arrow::compute::Cast(*high.Finish().ValueOrDie(), view).ValueOrDie();
    auto schema = arrow::schema({arrow::field("low", view), arrow::field("high", view)});
    auto table = arrow::Table::Make(schema, {low_array, high_array});
    const std::string path = (dir_ / ("strings_" + view->ToString() + ".parquet")).string();
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    // A small dictionary page limit makes the high-cardinality column fall back to plain pages.
    auto props =
        parquet::WriterProperties::Builder().dictionary_pagesize_limit(4096)->write_batch_size(100)->build();
    auto arrow_props = parquet::ArrowWriterProperties::Builder().store_schema()->build();
    ASSERT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), out, 1000, props,
                                           arrow_props)
                    .ok());
    ASSERT_TRUE(out->Close().ok());
    auto written = parquet::ParquetFileReader::OpenFile(path)->metadata();
    for (int g = 0; g < written->num_row_groups(); ++g) {
      auto encodings = [&](int column) {
        std::set<parquet::Encoding::type> e;
        const auto chunk = written->RowGroup(g)->ColumnChunk(column);
        for (const auto& page : chunk->encoding_stats())
          if (page.page_type != parquet::PageType::DICTIONARY_PAGE) e.insert(page.encoding);
        return e;
      };
      ASSERT_EQ(encodings(0), std::set<parquet::Encoding::type>{parquet::Encoding::RLE_DICTIONARY});
      ASSERT_TRUE(encodings(1).count(parquet::Encoding::PLAIN)) << "row group " << g;
    }
    auto reader = open(path);
    ASSERT_EQ(reader->num_splits(), 3u);
    std::vector<std::string> got_low, got_high;
    for (size_t split = 0; split < reader->num_splits(); ++split) {
      reader->read_split(split, {0, 1}, [&](Batch b) {
        for (int64_t i = 0; i < b.num_rows; ++i) {
          got_low.push_back(b.columns[0]->is_null(i) ? "<null>" : std::string(b.columns[0]->string_at(i)));
          got_high.push_back(std::string(b.columns[1]->string_at(i)));
        }
      });
    }
    EXPECT_EQ(got_low, expect_low) << view->ToString();
    EXPECT_EQ(got_high, expect_high) << view->ToString();
  }
}

TEST_F(ParquetReaderTest, DecodedBuffersAreAccounted) {
  // Arrow's reader allocates from the io pool, which Ember accounts for.
  config_.set("spark.ember.parquet.nativeDecoder", "false");
  auto reader = open(write_groups());
  const int64_t before = arrow_pool()->bytes_allocated();
  std::vector<Batch> held;
  reader->read_split(1, {0, 1}, [&](Batch b) { held.push_back(std::move(b)); });
  ASSERT_EQ(held.size(), 1u);
  EXPECT_GE(arrow_pool()->bytes_allocated() - before, 100 * 8);  // at least the bigint column
  held.clear();
  EXPECT_EQ(arrow_pool()->bytes_allocated(), before);
}

TEST_F(ParquetReaderTest, NativelyDecodedBuffersAreAccounted) {
  // Ember's decoder allocates Ember buffers, from the root pool.
  auto reader = open(write_groups());
  const int64_t before = MemoryPool::root()->used();
  std::vector<Batch> held;
  reader->read_split(1, {0, 1}, [&](Batch b) { held.push_back(std::move(b)); });
  ASSERT_EQ(held.size(), 1u);
  EXPECT_GE(MemoryPool::root()->used() - before, 100 * 8);  // at least the bigint column
  held.clear();
  EXPECT_EQ(MemoryPool::root()->used(), before);
}

TEST_F(ParquetReaderTest, CorruptFooterIsAUserError) {
  const std::string path = (dir_ / "bad.parquet").string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  std::fputs("PAR1 not parquet at all PAR1", f);
  std::fclose(f);
  try {
    open(path);
    FAIL() << "expected an error";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER");
  }
}

}  // namespace
}  // namespace ember::io
