// The `_metadata` column of file sources: its type per format and the values made for a block.

#include "io/file_metadata.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "io/file_listing.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

TEST(FileMetadata, TypePerFormat) {
  EXPECT_EQ(file_metadata_type("csv")->simple_string(),
            "struct<file_path:string,file_name:string,file_size:bigint,file_block_start:bigint,"
            "file_block_length:bigint,file_modification_time:timestamp>");
  EXPECT_EQ(file_metadata_type("Parquet")->fields().back().name, "row_index");
  for (const auto& f : file_metadata_type("parquet")->fields()) EXPECT_FALSE(f.nullable) << f.name;
  EXPECT_TRUE(
      has_row_index("org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat"));
  EXPECT_FALSE(has_row_index("orc"));
  EXPECT_TRUE(has_file_metadata("text"));
  EXPECT_FALSE(has_file_metadata("jdbc"));
}

TEST(FileMetadata, ValuesOfABlock) {
  const fs::path dir =
      fs::temp_directory_path() / ("ember_file_metadata_" + std::to_string(::getpid()));
  fs::create_directories(dir / "a b");
  const fs::path file = dir / "a b" / "x#1.csv";
  std::ofstream(file) << "1,2\n3,4\n";
  InputFileBlock block;
  block.uri = file_uri(file.string());
  block.start = 0;
  block.length = 8;
  const FileFacts facts = file_facts(block);
  EXPECT_EQ(facts.name, "x%231.csv");
  EXPECT_EQ(facts.size, 8);
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(facts.modification_time / 1000000, static_cast<int64_t>(st.st_mtim.tv_sec));
  EXPECT_EQ(facts.modification_time % 1000, 0);

  const TypePtr type = file_metadata_type("csv");
  ColumnPtr c = file_metadata_column(type, block, facts, 3, nullptr);
  ASSERT_EQ(c->length(), 3);
  ASSERT_EQ(c->children().size(), 6u);
  EXPECT_EQ(block.uri.substr(0, 8), "file:///");
  EXPECT_EQ(c->child(0)->string_at(2), "file:" + block.uri.substr(7));
  EXPECT_NE(c->child(0)->string_at(2).find("a%20b/x%231.csv"), std::string::npos);
  EXPECT_EQ(c->child(1)->string_at(0), "x%231.csv");
  EXPECT_EQ(c->child(2)->values<int64_t>()[1], 8);
  EXPECT_EQ(c->child(4)->values<int64_t>()[0], 8);
  fs::remove_all(dir);
  EXPECT_THROW(file_facts(block), SparkError);
}

}  // namespace
}  // namespace ember::io
