// Spark's split sizing and the file blocks that input_file_block_start() and
// input_file_block_length() report, and Hadoop's assignment of lines to byte ranges.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/config.h"
#include "io/data_source.h"
#include "io/spark_splits.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

TEST(SparkSplits, SplitBytesFollowSparksFormula) {
  const std::vector<InputFile> files = {{"/a", 3184, ""}, {"/b", 685, ""}};
  Config config;
  // Each file counts with the open cost (4 MiB by default), which is also the least split size.
  config.set("spark.sql.files.minPartitionNum", "2");
  EXPECT_EQ(spark_split_bytes(files, &config), (3184 + 685 + (int64_t{8} << 20)) / 2);
  config.set("spark.sql.files.minPartitionNum", "4");
  EXPECT_EQ(spark_split_bytes(files, &config), 4 << 20);
  config.set("spark.sql.files.minPartitionNum", "2");
  config.set("spark.sql.files.openCostInBytes", "100");
  EXPECT_EQ(spark_split_bytes(files, &config), (3184 + 100 + 685 + 100) / 2);
  config.set("spark.sql.files.maxPartitionBytes", "1k");
  EXPECT_EQ(spark_split_bytes(files, &config), 1024);
  config.set("spark.sql.files.maxPartitionBytes", "50");
  EXPECT_EQ(spark_split_bytes(files, &config), 50);
}

TEST(SparkSplits, BlocksOfSplittableAndWholeFiles) {
  const InputFile f{"/tmp/d/a b#1%.csv", 3184, ""};
  auto b = spark_file_block(f, 2100, 2034, true);
  EXPECT_EQ(b->uri, "file:///tmp/d/a%20b%231%25.csv");
  EXPECT_EQ(b->start, 2034);
  EXPECT_EQ(b->length, 1150);
  b = spark_file_block(f, 0, 2034, true);
  EXPECT_EQ(b->start, 0);
  EXPECT_EQ(b->length, 2034);
  b = spark_file_block(f, 2100, 2034, false);
  EXPECT_EQ(b->start, 0);
  EXPECT_EQ(b->length, 3184);
}

TEST(SparkSplits, FileUrisQuoteAsJavaUriDoes) {
  EXPECT_EQ(file_uri("/x/p=1/é ü/[a]{b}^`|\"<>?\\.txt"),
            "file:///x/p=1/é%20ü/%5Ba%5D%7Bb%7D%5E%60%7C%22%3C%3E%3F%5C.txt");
  EXPECT_EQ(file_uri("/x/a-b_c.d!~*'(),;:$&+=@"), "file:///x/a-b_c.d!~*'(),;:$&+=@");
}

TEST(SparkSplits, CutsAreTheUnionOfBothGrids) {
  EXPECT_EQ(split_cuts(10, 4, 3), (std::vector<int64_t>{0, 3, 4, 6, 8, 9, 10}));
  EXPECT_EQ(split_cuts(10, 5, 5), (std::vector<int64_t>{0, 5, 10}));
  EXPECT_EQ(split_cuts(3, 32, 128), (std::vector<int64_t>{0, 3}));
}

class LineOwnership : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ember_spark_splits_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // Lines start at 0, 3, 6 and 9: each of the last three right at a split boundary.
    std::ofstream(dir_ / "f.txt", std::ios::binary) << "aa\nbb\ncc\ndd";
    config_.set("spark.sql.files.maxPartitionBytes", "3");
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Each split's rows (first column as text) and its block.
  std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> read(const std::string& format) {
    ReadRequest r;
    r.format = format;
    r.paths = {(dir_ / "f.txt").string()};
    r.config = &config_;
    auto reader = open_reader(r);
    std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> out;
    for (size_t s = 0; s < reader->num_splits(); ++s) {
      std::string rows;
      reader->read_split(s, {0}, [&](Batch b) {
        for (int64_t i = 0; i < b.num_rows; ++i) rows += std::string(b.columns[0]->string_at(i)) + ";";
      });
      auto block = reader->split_block(s);
      EXPECT_EQ(block->uri, "file://" + (dir_ / "f.txt").string());
      out.push_back({rows, {block->start, block->length}});
    }
    return out;
  }

  fs::path dir_;
  Config config_;
};

// A range owns the lines starting after its first byte and through its end, as Hadoop's line
// reader assigns them to Spark's splits: [0,3) reads "aa" and "bb" (which starts at 3).
TEST_F(LineOwnership, LinesStartingAtABoundaryBelongToThePreviousSplit) {
  const decltype(read("text")) expected = {
      {"aa;bb;", {0, 3}}, {"cc;", {3, 3}}, {"dd;", {6, 3}}, {"", {9, 2}}};
  EXPECT_EQ(read("text"), expected);
  EXPECT_EQ(read("csv"), expected);
}

}  // namespace
}  // namespace ember::io

namespace ember::io {
namespace {

TEST(SparkSplits, SmallFilesPackIntoPartitionsLargestFirst) {
  Config config;
  config.set("spark.sql.files.minPartitionNum", "2");
  // Ten files of 500..1400 bytes, each counting 4 MiB of open cost: the split size is half the
  // total, so the largest five fill the first partition and the rest the second.
  std::vector<InputFileBlock> blocks;
  for (int i = 0; i < 10; ++i) blocks.push_back({"file:/f" + std::to_string(i), 0, 500 + 100 * i});
  EXPECT_EQ(spark_file_partitions(blocks, &config),
            (std::vector<int64_t>{1, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
  // Without an open cost, maxPartitionBytes bounds each partition's bytes.
  config.set("spark.sql.files.openCostInBytes", "0");
  config.set("spark.sql.files.maxPartitionBytes", "2000");
  EXPECT_EQ(spark_file_partitions(blocks, &config),
            (std::vector<int64_t>{6, 6, 5, 5, 4, 4, 3, 2, 1, 0}));
}

}  // namespace
}  // namespace ember::io
