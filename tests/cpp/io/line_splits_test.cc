#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/config.h"
#include "io/data_source.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

// Every line is read exactly once, in order, whatever the split size.
TEST(LineSplits, TextAndJsonLinesSplitByByteRanges) {
  const fs::path dir = fs::temp_directory_path() / ("ember_line_splits_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string text, json;
  for (int i = 0; i < 3000; ++i) {
    const std::string pad(static_cast<size_t>(i % 11), 'x');
    text += "l" + std::to_string(i) + pad + (i % 4 == 0 ? "\r\n" : "\n");
    json += "{\"i\": " + std::to_string(i) + ", \"p\": \"" + pad + "\"}\n";
  }
  std::ofstream(dir / "t.txt", std::ios::binary) << text;
  std::ofstream(dir / "j.json", std::ios::binary) << json;
  for (int split : {4096, 5000, 100000}) {
    Config config;
    config.set("spark.ember.io.splitBytes", std::to_string(split));
    for (const char* format : {"text", "json"}) {
      ReadRequest r;
      r.format = format;
      r.paths = {(dir / (std::string(format) == "text" ? "t.txt" : "j.json")).string()};
      r.config = &config;
      auto reader = open_reader(r);
      const size_t bytes = std::string(format) == "text" ? text.size() : json.size();
      EXPECT_EQ(reader->num_splits(), split >= static_cast<int>(bytes) ? 1u : (bytes + split - 1) / split);
      int64_t next = 0;
      for (size_t s = 0; s < reader->num_splits(); ++s) {
        reader->read_split(s, {0}, [&](Batch b) {
          for (int64_t row = 0; row < b.num_rows; ++row, ++next) {
            if (std::string(format) == "text") {
              const std::string want = "l" + std::to_string(next) + std::string(static_cast<size_t>(next % 11), 'x');
              ASSERT_EQ(b.columns[0]->string_at(row), want);
            } else {
              ASSERT_EQ(b.columns[0]->values<int64_t>()[row], next);
            }
          }
        });
      }
      EXPECT_EQ(next, 3000) << format << " " << split;
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ember::io
