#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "common/config.h"
#include "common/error.h"
#include "common/timezone.h"
#include "io/data_sink.h"
#include "io/datetime_format.h"
#include "io/partitioning.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

class DataSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ember_sink_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    config_.set("spark.sql.session.timeZone", "UTC");
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Batch ints(std::vector<int64_t> a, std::vector<std::string> s) {
    ColumnBuilder x(DataType::long_()), y(DataType::string());
    for (auto v : a) x.append<int64_t>(v);
    for (auto& v : s) y.append_bytes(v);
    return Batch({x.finish(), y.finish()}, static_cast<int64_t>(a.size()));
  }

  void write(const std::string& format, const std::string& path, SaveMode mode,
             std::vector<Batch> batches, std::vector<std::string> partition_by = {},
             bool fail_after_first = false, OverwriteScope scope = OverwriteScope::kAll,
             std::string static_partition = "") {
    WriteRequest r;
    r.overwrite_scope = scope;
    r.static_partition = std::move(static_partition);
    r.format = format;
    r.path = path;
    r.mode = mode;
    r.partition_by = std::move(partition_by);
    r.config = &config_;
    size_t next = 0;
    write_files(r, schema_, [&](Batch* out) {
      if (next == 1 && fail_after_first)
        throw SparkError(ErrorKind::kArithmetic, "DIVIDE_BY_ZERO", "Division by zero.");
      if (next >= batches.size()) return false;
      *out = batches[next++];
      return true;
    });
  }

  std::vector<std::string> names(const fs::path& p) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(p))
      out.push_back(fs::relative(e.path(), p).string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  Config config_;
  Schema schema_{{"a", DataType::long_(), true, "{}"}, {"s", DataType::string(), true, "{}"}};
};

TEST_F(DataSinkTest, CommitNamesFilesLikeSpark) {
  const std::string out = (dir_ / "out").string();
  write("csv", out, SaveMode::kErrorIfExists, {ints({1, 2}, {"x", "y"})});
  auto files = names(out);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0], "_SUCCESS");
  EXPECT_TRUE(std::regex_match(files[1], std::regex("part-00000-[0-9a-f-]{36}-c000\\.csv"))) << files[1];
  std::ifstream in(fs::path(out) / files[1]);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "1,x\n2,y\n");
  // Nothing but the target is left in the parent.
  EXPECT_EQ(names(dir_).size(), 3u);
}

TEST_F(DataSinkTest, OneFilePerSparkPartition) {
  const std::string out = (dir_ / "out").string();
  Batch b2 = ints({1, 2, 3}, {"x", "y", "z"});
  b2.partition = 2;
  Batch b5 = ints({4}, {"w"});
  b5.partition = 5;
  Batch b2_again = ints({6}, {"v"});
  b2_again.partition = 2;
  // Partition 0 has no rows and still gets a file (Spark's first task writes the schema);
  // partition 2's rows arrive in two runs and roll over at maxRecordsPerFile.
  config_.set("spark.sql.session.timeZone", "UTC");
  WriteRequest r;
  r.format = "csv";
  r.path = out;
  r.config = &config_;
  r.options.set("maxRecordsPerFile", "2");
  std::vector<Batch> batches = {b2, b5, b2_again};
  size_t next = 0;
  write_files(r, schema_, [&](Batch* o) {
    if (next >= batches.size()) return false;
    *o = batches[next++];
    return true;
  });
  std::vector<std::string> parts;
  for (const auto& f : names(out))
    if (f[0] != '_') parts.push_back(f.substr(0, 10) + f.substr(f.size() - 9));
  EXPECT_EQ(parts, (std::vector<std::string>{"part-00000-c000.csv", "part-00002-c000.csv",
                                             "part-00002-c001.csv", "part-00002-c002.csv",
                                             "part-00005-c000.csv"}));
}

TEST_F(DataSinkTest, ModesOnAnExistingPath) {
  const std::string out = (dir_ / "out").string();
  write("csv", out, SaveMode::kErrorIfExists, {ints({1}, {"x"})});
  try {
    write("csv", out, SaveMode::kErrorIfExists, {ints({2}, {"y"})});
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "PATH_ALREADY_EXISTS");
  }
  write("csv", out, SaveMode::kIgnore, {ints({3}, {"z"})});
  EXPECT_EQ(names(out).size(), 2u);
  write("csv", out, SaveMode::kAppend, {ints({4}, {"w"})});
  EXPECT_EQ(names(out).size(), 3u);
  write("csv", out, SaveMode::kOverwrite, {ints({5}, {"v"})});
  EXPECT_EQ(names(out).size(), 2u);
}

TEST_F(DataSinkTest, AFailedJobLeavesNoTrace) {
  const std::string out = (dir_ / "out").string();
  EXPECT_THROW(write("parquet", out, SaveMode::kErrorIfExists, {ints({1}, {"x"}), ints({2}, {"y"})},
                     {}, true),
               SparkError);
  EXPECT_TRUE(names(dir_).empty());
  // An overwrite that fails keeps the old data.
  write("csv", out, SaveMode::kErrorIfExists, {ints({1}, {"x"})});
  const auto before = names(out);
  EXPECT_THROW(write("csv", out, SaveMode::kOverwrite, {ints({1}, {"x"}), ints({2}, {"y"})}, {}, true),
               SparkError);
  EXPECT_EQ(names(out), before);
  EXPECT_EQ(names(dir_).size(), before.size() + 1);
}

TEST_F(DataSinkTest, PartitionDirectoriesAreEscapedAndDiscovered) {
  const std::string out = (dir_ / "out").string();
  write("csv", out, SaveMode::kErrorIfExists, {ints({1, 2, 3}, {"a/b", "", "a/b"})}, {"s"});
  const auto files = names(out);
  EXPECT_NE(std::find(files.begin(), files.end(), "s=a%2Fb"), files.end());
  EXPECT_NE(std::find(files.begin(), files.end(), "s=__HIVE_DEFAULT_PARTITION__"), files.end());

  ReadRequest r;
  r.format = "csv";
  r.paths = {out};
  r.config = &config_;
  auto reader = open_reader(r);
  ASSERT_EQ(reader->schema().size(), 2u);
  EXPECT_EQ(reader->schema()[1].name, "s");
  EXPECT_EQ(reader->schema()[1].type->simple_string(), "string");
  // Pruning by the partition value.
  int matching = 0;
  for (size_t i = 0; i < reader->num_splits(); ++i)
    matching += reader->split_may_match(i, {{1, ScanPredicate::Op::kEq, Value::bytes("a/b")}});
  EXPECT_EQ(matching, 1);
}

/// The partition directories under `p` that hold a data file.
std::vector<std::string> partitions_with_files(const fs::path& p) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(p)) {
    if (!e.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(e.path()))
      if (f.path().filename().string().rfind("part-", 0) == 0) {
        out.push_back(e.path().filename().string());
        break;
      }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(DataSinkTest, OverwriteScopes) {
  const std::string out = (dir_ / "t").string();
  write("parquet", out, SaveMode::kErrorIfExists, {ints({1, 2, 3}, {"x", "y", "z"})}, {"s"});
  // Dynamic: only the partitions written are replaced.
  write("parquet", out, SaveMode::kOverwrite, {ints({20, 40}, {"y", "w"})}, {"s"}, false,
        OverwriteScope::kWrittenPartitions);
  EXPECT_EQ(partitions_with_files(out), (std::vector<std::string>{"s=w", "s=x", "s=y", "s=z"}));
  EXPECT_TRUE(fs::exists(fs::path(out) / "_SUCCESS"));
  // Static: the named partition goes, whatever the job writes.
  write("parquet", out, SaveMode::kOverwrite, {ints({5}, {"v"})}, {"s"}, false,
        OverwriteScope::kStaticPartition, partition_directory("s", std::string("x")));
  EXPECT_EQ(partitions_with_files(out), (std::vector<std::string>{"s=v", "s=w", "s=y", "s=z"}));
  // A failing dynamic overwrite leaves every partition as it was.
  EXPECT_THROW(write("parquet", out, SaveMode::kOverwrite, {ints({1}, {"y"}), ints({2}, {"z"})}, {"s"}, true,
                     OverwriteScope::kWrittenPartitions),
               SparkError);
  EXPECT_EQ(partitions_with_files(out), (std::vector<std::string>{"s=v", "s=w", "s=y", "s=z"}));
  // Everything.
  write("parquet", out, SaveMode::kOverwrite, {ints({9}, {"q"})}, {"s"});
  EXPECT_EQ(partitions_with_files(out), (std::vector<std::string>{"s=q"}));
  EXPECT_EQ(partition_directory("p", std::nullopt), "p=__HIVE_DEFAULT_PARTITION__");
  EXPECT_EQ(partition_directory("p", std::string("a:b")), "p=a%3Ab");
}

TEST(DateTimeFormatter, SparkWriterDefaults) {
  const TimeZone& utc = TimeZone::get("UTC");
  const TimeZone& la = TimeZone::get("America/Los_Angeles");
  DateTimeFormatter ts("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
  EXPECT_EQ(ts.format_timestamp(1'000'123'456, utc), "1970-01-01T00:16:40.123Z");
  EXPECT_EQ(ts.format_timestamp(0, la), "1969-12-31T16:00:00.000-08:00");
  DateTimeFormatter ntz("yyyy-MM-dd'T'HH:mm:ss[.SSS]");
  EXPECT_EQ(ntz.format_timestamp_ntz(1'500'000), "1970-01-01T00:00:01.500");
  DateTimeFormatter d("dd.MM.yyyy");
  EXPECT_EQ(d.format_date(19782), "29.02.2024");
}

}  // namespace
}  // namespace ember::io
