#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <atomic>
#include <random>
#include <thread>
#include <sstream>

#include "common/config.h"
#include "common/datetime.h"
#include "common/error.h"
#include "io/data_source.h"

namespace ember::io {
namespace {

namespace fs = std::filesystem;

// A scratch directory removed at the end of each test.
class CsvReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ember_csv_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    config_.set("spark.sql.session.timeZone", "UTC");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

  std::unique_ptr<DataSourceReader> open(const std::vector<std::string>& paths,
                                         std::map<std::string, std::string> options,
                                         const std::string& ddl = "") {
    ReadRequest r;
    r.format = "csv";
    r.paths = paths;
    r.options = Options(options);
    if (!ddl.empty()) r.user_schema = parse_ddl_schema(ddl);
    r.config = &config_;
    return open_reader(r);
  }

  // Every row of every split, as strings ("null" for nulls), in split order.
  static std::vector<std::vector<std::string>> rows(const DataSourceReader& reader,
                                                    std::vector<int> projection = {},
                                                    bool all_columns = true) {
    if (all_columns && projection.empty()) {
      for (size_t i = 0; i < reader.schema().size(); ++i) projection.push_back(static_cast<int>(i));
    }
    std::vector<std::vector<std::string>> out;
    for (size_t s = 0; s < reader.num_splits(); ++s) {
      reader.read_split(s, projection, [&](Batch b) {
        for (int64_t r = 0; r < b.num_rows; ++r) {
          std::vector<std::string> row;
          for (size_t c = 0; c < b.num_columns(); ++c) row.push_back(show(*b.column(c), r));
          out.push_back(row);
        }
      });
    }
    return out;
  }

  static std::string show(const Column& c, int64_t r) {
    if (c.is_null(r)) return "null";
    switch (c.type()->id()) {
      case TypeId::kString: return std::string(c.string_at(r));
      case TypeId::kBoolean: return c.bool_at(r) ? "true" : "false";
      case TypeId::kByte: return std::to_string(c.values<int8_t>()[r]);
      case TypeId::kShort: return std::to_string(c.values<int16_t>()[r]);
      case TypeId::kInt: return std::to_string(c.values<int32_t>()[r]);
      case TypeId::kLong: return std::to_string(c.values<int64_t>()[r]);
      case TypeId::kFloat: return fmt(c.values<float>()[r]);
      case TypeId::kDouble: return fmt(c.values<double>()[r]);
      case TypeId::kDecimal:
        return decimal_to_string(c.values<int128_t>()[r], c.type()->scale());
      case TypeId::kDate: return format_date(c.values<int32_t>()[r]);
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: return format_timestamp_ntz(c.values<int64_t>()[r]);
      default: return "?";
    }
  }
  static std::string fmt(double d) {
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    std::ostringstream ss;
    ss << d;
    return ss.str();
  }

  static std::string types(const DataSourceReader& r) {
    std::string s;
    for (const auto& f : r.schema()) s += (s.empty() ? "" : ",") + f.name + ":" + f.type->simple_string();
    return s;
  }

  using Rows = std::vector<std::vector<std::string>>;
  fs::path dir_;
  Config config_;
};

TEST_F(CsvReaderTest, InfersTypesAsSpark) {
  // Each column holds one case; the expected types were checked against Apache Spark 4.
  struct Case {
    std::string name, type;
    std::vector<std::string> values;
  };
  std::vector<Case> cases = {
      {"i", "int", {"1", "-2", "+3"}},
      {"l", "bigint", {"1", "3000000000"}},
      {"bigdec", "decimal(20,0)", {"1", "12345678901234567890"}},
      {"dec40", "double", {"1", "1234567890123456789012345678901234567890"}},
      {"big38", "decimal(38,0)", {"12345678901234567890123456789012345678"}},
      {"exp", "double", {"1e10"}},
      {"dotint", "decimal(1,0)", {"1."}},
      {"dot5", "double", {".5"}},
      {"d_suffix", "double", {"1.5d"}},
      {"nan", "double", {"NaN"}},
      {"inf", "double", {"Inf"}},
      {"pinf", "string", {"+Inf"}},
      {"infinity", "double", {"-Infinity"}},
      {"hex", "double", {"0x1p3"}},
      {"spaced", "double", {" 1"}},
      {"bool", "boolean", {"true", "FALSE"}},
      {"date", "date", {"2023-01-01"}},
      {"date1", "timestamp", {"2023-1-1"}},
      {"ts", "timestamp", {"2023-01-01 10:00:00"}},
      {"tsz", "timestamp", {"2023-01-01T10:00:00Z"}},
      {"datets", "timestamp", {"2023-01-01", "2023-01-01 10:00:00"}},
      {"intdbl", "double", {"1", "2.5"}},
      {"intbool", "string", {"1", "true"}},
      {"datedbl", "string", {"2023-01-01", "1.5"}},
      {"yr", "int", {"2023"}},
      {"ym", "timestamp", {"2023-01"}},
      {"feb30", "string", {"2023-02-30"}},
      {"comma", "string", {"1,000"}},
      {"dec_long", "decimal(20,0)", {"12345678901234567890", "5"}},
      {"dec_dbl", "double", {"12345678901234567890", "1.5"}},
      {"allnull", "string", {}},
      {"datenull", "date", {"", "2023-01-01"}},
  };
  std::string text;
  for (size_t i = 0; i < cases.size(); ++i) text += (i ? "|" : "") + cases[i].name;
  text += "\n";
  for (size_t r = 0; r < 3; ++r) {
    for (size_t i = 0; i < cases.size(); ++i) {
      text += (i ? "|" : "");
      if (r < cases[i].values.size()) text += cases[i].values[r];
    }
    text += "\n";
  }
  auto reader = open({write("infer.csv", text)}, {{"header", "true"}, {"inferSchema", "true"}, {"sep", "|"}});
  ASSERT_EQ(reader->schema().size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(reader->schema()[i].name, cases[i].name);
    EXPECT_EQ(reader->schema()[i].type->simple_string(), cases[i].type) << cases[i].name;
    EXPECT_TRUE(reader->schema()[i].nullable);
  }
  Rows r = rows(*reader);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0][0], "1");
  EXPECT_EQ(r[2][0], "3");
  EXPECT_EQ(r[1][2], "12345678901234567890");
  EXPECT_EQ(r[0][12], "-Infinity");
}

TEST_F(CsvReaderTest, InfersWithoutHeaderAndWithPreferDateOff) {
  auto reader = open({write("a.csv", "1,2023-01-01,x\n3,2023-01-02,\n")},
                     {{"inferSchema", "true"}, {"preferDate", "false"}});
  EXPECT_EQ(types(*reader), "_c0:int,_c1:timestamp,_c2:string");
  config_.set("spark.sql.timestampType", "TIMESTAMP_NTZ");
  reader = open({write("b.csv", "2023-01-01 10:00:00,2023-01-01T10:00:00Z,2023-01-01\n")},
                {{"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "_c0:timestamp_ntz,_c1:timestamp,_c2:date");
}

TEST_F(CsvReaderTest, HeaderNamesAreMadeSafe) {
  auto reader = open({write("h.csv", "a,A,b,,a,c,NA\n1,2,3,4,5,6,7\n")}, {{"header", "true"}});
  EXPECT_EQ(types(*reader),
            "a0:string,A1:string,b:string,_c3:string,a4:string,c:string,NA:string");
  reader = open({write("h2.csv", "a,A,b,,a,c,NA\n1,2,3,4,5,6,7\n")},
                {{"header", "true"}, {"nullValue", "NA"}});
  EXPECT_EQ(reader->schema()[6].name, "_c6");
  config_.set("spark.sql.caseSensitive", "true");
  reader = open({write("h3.csv", "a,A\n1,2\n")}, {{"header", "true"}});
  EXPECT_EQ(types(*reader), "a:string,A:string");
}

TEST_F(CsvReaderTest, QuotingAndEscapes) {
  const std::string text =
      "a,b\n"
      "\"x\"\"y\",1\n"      // doubled quote with a backslash escape: the field is raw
      "\"x\\\"y\",2\n"      // escaped quote
      "x\\\"y,3\n"          // no escapes outside quotes
      "\"ab\"cd,4\n"        // text after the closing quote: raw
      "  \"ab\"  ,5\n"      // quote not first: raw
      "\"\",6\n"            // quoted empty: emptyValue, which is null by default
      ",7\n"
      "\"ab\"  ,8\n"        // spaces after the closing quote are skipped
      "\"a\\\\b\",9\n"      // doubled escape
      "\"a,b\"x,10\n"       // raw through the next delimiter after the quote
      "\"unclosed,11\n";
  auto reader = open({write("q.csv", text)}, {{"header", "true"}});
  Rows expected = {{"\"x\"\"y\"", "1"}, {"x\"y", "2"},       {"x\\\"y", "3"},
                   {"\"ab\"cd", "4"},   {"  \"ab\"  ", "5"}, {"null", "6"},
                   {"null", "7"},       {"ab", "8"},         {"a\\b", "9"},
                   {"\"a,b\"x", "10"},  {"unclosed,11", "null"}};
  EXPECT_EQ(rows(*reader), expected);
  reader = open({write("q2.csv", "a,b\n\"x\"\"y\",1\n")}, {{"header", "true"}, {"escape", "\""}});
  EXPECT_EQ(rows(*reader), (Rows{{"x\"y", "1"}}));
  reader = open({write("q3.csv", "a,b\n'x\\'y',1\n\"p\",2\n")}, {{"header", "true"}, {"quote", "'"}});
  EXPECT_EQ(rows(*reader), (Rows{{"x'y", "1"}, {"\"p\"", "2"}}));
  reader = open({write("q4.csv", "a,b\n\"p\",2\n")}, {{"header", "true"}, {"quote", ""}});
  EXPECT_EQ(rows(*reader), (Rows{{"\"p\"", "2"}}));
}

// Quote runs and text after a closing quote, as Spark 4 reads them (default escape `\`).
TEST_F(CsvReaderTest, QuoteRuns) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"\"\"\"", "\"\""},          {"\"\"\"", "\""},
      {"\"\"\"\"\"", "\"\"\""},    {"\"a\"\"\"", "a\"\""},
      {"\"\"\"a\"", "\"\"\"a\""},  {"\"\"a\"", "\"\"a\""},
      {"\"a\"\"", "a\""},          {"\"ab\"c\"d\"", "\"ab\"c\"d\""},
      {"\"\" x", "\"\" x"},        {"\"\\\"\"", "\""},
      {"\"\"\"\"x", "\"\"\"\"x"},  {"\"a\" \"b\"", "\"a\" \"b\""},
      {"\"\\\\\"\"\"", "\\\"\""},
  };
  std::string text = "v,w\n";
  for (const auto& c : cases) text += c.first + ",1\n";
  for (const char* multi : {"false", "true"}) {
    auto reader = open({write(std::string("runs_") + multi + ".csv", text)},
                       {{"header", "true"}, {"multiLine", multi}});
    Rows r = rows(*reader);
    ASSERT_EQ(r.size(), cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
      EXPECT_EQ(r[i][0], cases[i].second) << cases[i].first;
      EXPECT_EQ(r[i][1], "1") << cases[i].first;
    }
  }
  // With escape = quote, doubled quotes are escapes; a closing quote followed by text keeps
  // the resolved content between quotes.
  auto reader = open({write("runs_eq.csv", "v,w\n\"\"\"\",1\n\"a\"\"b\"\"c\",2\n\"\"\"\"x,3\n")},
                     {{"header", "true"}, {"escape", "\""}});
  EXPECT_EQ(rows(*reader), (Rows{{"\"", "1"}, {"a\"b\"c", "2"}, {"\"\"\"x", "3"}}));
}

TEST_F(CsvReaderTest, MultiLine) {
  auto path = write("m.csv", "a,b\r\n\"x\r\ny\",1\r\n\"multi\nline, with comma\",2\r\n3,4\r\n");
  auto reader = open({path}, {{"header", "true"}, {"multiLine", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:string,b:int");
  EXPECT_EQ(rows(*reader), (Rows{{"x\ny", "1"}, {"multi\nline, with comma", "2"}, {"3", "4"}}));
  // Without multiLine the quoted newline splits the record.
  reader = open({write("m2.csv", "a,b\n\"multi\nline\",8\n")}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"multi", "null"}, {"line\"", "8"}}));
  // The first line ending of the file is the record terminator: in a "\n" file a "\r\n"
  // inside quotes stays as it is, and a lone '\r' is an ordinary character.
  reader = open({write("m_lf.csv", "a,b\n\"x\r\ny\",1\nq\r,2\n")}, {{"header", "true"}, {"multiLine", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"x\r\ny", "1"}, {"q\r", "2"}}));
  reader = open({write("m3.csv", "a,b;\"x;y\",1;2,3;")},
                {{"header", "true"}, {"multiLine", "true"}, {"lineSep", ";"}});
  EXPECT_EQ(rows(*reader), (Rows{{"x;y", "1"}, {"2", "3"}}));
}

TEST_F(CsvReaderTest, LinesSeparatorsBlankLinesCommentsAndBom) {
  auto reader = open({write("e.csv", "\xEF\xBB\xBF" "a,b\n\n1,2\n   \n3,4\n#c,5\n")},
                     {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:string,b:int");
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}, {"3", "4"}, {"#c", "5"}}));
  reader = open({write("c.csv", "a,b\n1,2#x\n#3,4\n 5,6\n")}, {{"header", "true"}, {"comment", "#"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2#x"}, {" 5", "6"}}));
  reader = open({write("crlf.csv", "a,b\r\n1,2\r\n3,4\r\n")}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}, {"3", "4"}}));
  reader = open({write("cr.csv", "a,b\r1,2\r3,4\r")}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}, {"3", "4"}}));
  reader = open({write("ls.csv", "a,b;1,2;3,4;")}, {{"header", "true"}, {"lineSep", ";"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}, {"3", "4"}}));
  reader = open({write("sep.csv", "a||b\n 1 || x \n")}, {{"header", "true"}, {"sep", "||"}});
  EXPECT_EQ(rows(*reader), (Rows{{" 1 ", " x "}}));
  // Spark's parser does not trim the end of the last field with a multi-character delimiter.
  reader = open({write("sep2.csv", "a||b\n 1 || x \n")},
                {{"header", "true"}, {"sep", "||"}, {"ignoreLeadingWhiteSpace", "true"},
                 {"ignoreTrailingWhiteSpace", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "x "}}));
  // ... and reads a quote that ends it doubled.
  reader = open({write("sep3.csv", "a||b\n1\"||2\"\n")}, {{"header", "true"}, {"sep", "||"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1\"", "2\"\""}}));
  reader = open({write("tab.csv", "a\tb\n1\t2\n")}, {{"header", "true"}, {"sep", "\\t"}});
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}}));
  reader = open({write("ws.csv", "a,b\n  \" q \" , 2 \n")},
                {{"header", "true"}, {"ignoreLeadingWhiteSpace", "true"},
                 {"ignoreTrailingWhiteSpace", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:string,b:int");
  EXPECT_EQ(rows(*reader), (Rows{{" q ", "2"}}));
}

TEST_F(CsvReaderTest, NullAndEmptyValues) {
  const std::string text = "a,b,c\n,\"\",NA\nNA,x,\n";
  auto reader = open({write("n.csv", text)}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"null", "null", "NA"}, {"NA", "x", "null"}}));
  reader = open({write("n2.csv", text)}, {{"header", "true"}, {"nullValue", "NA"}});
  EXPECT_EQ(rows(*reader), (Rows{{"null", "", "null"}, {"null", "x", "null"}}));
  reader = open({write("n3.csv", text)}, {{"header", "true"}, {"emptyValue", "EMPTY"}});
  EXPECT_EQ(rows(*reader), (Rows{{"null", "EMPTY", "NA"}, {"NA", "x", "null"}}));
}

TEST_F(CsvReaderTest, TypedValuesAsSparkParsesThem) {
  config_.set("spark.sql.session.timeZone", "America/Los_Angeles");
  const std::string text =
      "i,l,d,b,dec,dt,ts\n"
      " 1 ,1.0, 1.5 ,TRUE,1.005,2023-1-1,2023-01-01T10:00:00Z\n"
      "+1,+5,NaN,tRuE,\"1,234.5\",2023-01-01 10:00:00,2023-03-12 02:30:00\n"
      "1e2,-0,Inf,yes,1e2,2023-02-30,2023-11-05 01:30:00\n"
      "2147483648,9223372036854775808,-Infinity,1,-0.005,+2023-01-01,1900-01-01 00:00:00\n"
      ",,1.5d,,123456789.123,2023-01-01T00:00,2023-01-01 10:00:00.1234567\n";
  auto reader = open({write("t.csv", text)}, {{"header", "true"}},
                     "i int, l long, d double, b boolean, dec decimal(10,2), dt date, ts timestamp");
  // Timestamps are shown in UTC.
  Rows expected = {
      {"null", "null", "1.5", "true", "1.01", "2023-01-01", "2023-01-01 10:00:00"},
      {"1", "5", "NaN", "true", "1234.50", "2023-01-01", "2023-03-12 10:30:00"},
      {"null", "0", "Infinity", "null", "100.00", "null", "2023-11-05 08:30:00"},
      {"null", "null", "-Infinity", "null", "-0.01", "2023-01-01", "1900-01-01 08:00:00"},
      {"null", "null", "1.5", "null", "null", "2023-01-01", "2023-01-01 18:00:00.123456"},
  };
  EXPECT_EQ(rows(*reader), expected);
  reader = open({write("t2.csv", text)}, {{"header", "true"}},
                "i int, l long, d double, b boolean, dec decimal(10,2), dt date, ts timestamp_ntz");
  Rows r = rows(*reader);
  EXPECT_EQ(r[0][6], "null");  // a zone is not allowed in TIMESTAMP_NTZ
  EXPECT_EQ(r[1][6], "2023-03-12 02:30:00");
  reader = open({write("small.csv", "a,b,c\n127,1.5,3.4028235E39\n128,x,1e-50\n")},
                {{"header", "true"}}, "a byte, b float, c float");
  EXPECT_EQ(rows(*reader), (Rows{{"127", "1.5", "Infinity"}, {"null", "null", "0"}}));
}

TEST_F(CsvReaderTest, UserDatetimePatterns) {
  const std::string text = "d,t\n01/02/2023,01/02/2023 10:11\n1/2/2023,01/02/2023 10:11:12\n2023-01-02,2023-01-02 10:11\n";
  auto reader = open({write("f.csv", text)},
                     {{"header", "true"}, {"dateFormat", "dd/MM/yyyy"}, {"timestampFormat", "dd/MM/yyyy HH:mm"}},
                     "d date, t timestamp");
  EXPECT_EQ(rows(*reader), (Rows{{"2023-02-01", "2023-02-01 10:11:00"}, {"null", "null"}, {"null", "null"}}));
  reader = open({write("f2.csv", "t\n2023/1/2 3:04:05\n2023-01-02T03:04:05.123+01:00\nJan 02 2023\n")},
                {{"header", "true"}, {"timestampFormat", "[yyyy/M/d H:mm:ss][yyyy-MM-dd'T'HH:mm:ss.SSSXXX][MMM dd yyyy]"}},
                "t timestamp");
  EXPECT_EQ(rows(*reader), (Rows{{"2023-01-02 03:04:05"}, {"2023-01-02 02:04:05.123"}, {"2023-01-02 00:00:00"}}));
  reader = open({write("f3.csv", "t\n20230102\n2023-01-02 03:04:05 PM\n")},
                {{"header", "true"}, {"timestampFormat", "[yyyyMMdd][yyyy-MM-dd hh:mm:ss a]"}},
                "t timestamp");
  EXPECT_EQ(rows(*reader), (Rows{{"2023-01-02 00:00:00"}, {"2023-01-02 15:04:05"}}));
  reader = open({write("f4.csv", "t\n01/02/2023 10:11\n1/2/2023\n")},
                {{"header", "true"}, {"inferSchema", "true"}, {"timestampFormat", "dd/MM/yyyy HH:mm"}});
  EXPECT_EQ(types(*reader), "t:string");
}

TEST_F(CsvReaderTest, Modes) {
  const std::string text = "a,b\n1,2\n3\n4,5,6\nx,7\n";
  const std::string path = write("m.csv", text);
  auto reader = open({path}, {{"header", "true"}}, "a int, b int");
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}, {"3", "null"}, {"4", "5"}, {"null", "7"}}));
  reader = open({path}, {{"header", "true"}, {"mode", "DROPMALFORMED"}}, "a int, b int");
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2"}}));
  // With only some columns read, the field count is not checked (as in Spark).
  EXPECT_EQ(rows(*reader, {0}), (Rows{{"1"}, {"3"}, {"4"}}));
  EXPECT_EQ(rows(*reader, {1}), (Rows{{"2"}, {"null"}, {"5"}, {"7"}}));
  reader = open({path}, {{"header", "true"}}, "a int, b int, _corrupt_record string");
  EXPECT_EQ(rows(*reader), (Rows{{"1", "2", "null"}, {"3", "null", "3"}, {"4", "5", "4,5,6"}, {"null", "7", "x,7"}}));
  EXPECT_EQ(rows(*reader, {0, 2}), (Rows{{"1", "null"}, {"3", "null"}, {"4", "null"}, {"null", "x,7"}}));
  reader = open({path}, {{"header", "true"}}, "a int, _corrupt_record string, b int");
  EXPECT_EQ(rows(*reader)[1], (std::vector<std::string>{"3", "3", "null"}));
  reader = open({path}, {{"header", "true"}, {"mode", "FAILFAST"}}, "a int, b int");
  EXPECT_EQ(rows(*reader, {1}).size(), 4u);
  try {
    rows(*reader);
    FAIL() << "FAILFAST should throw";
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "FAILED_READ_FILE.NO_HINT");
    EXPECT_EQ(e.params().at("path"), "file://" + path);
    EXPECT_EQ(e.message(), "Encountered error while reading file file://" + path + ". ");
  }
  // Counting (no columns) parses nothing, so every record counts whatever the mode.
  int64_t count = 0;
  for (size_t s = 0; s < reader->num_splits(); ++s)
    reader->read_split(s, {}, [&](Batch b) { count += b.num_rows; });
  EXPECT_EQ(count, 4);
  // A schema wider than the records.
  reader = open({write("w.csv", "a,b\n1,2\n")}, {{"header", "true"}, {"mode", "DROPMALFORMED"}},
                "a int, b int, c int");
  EXPECT_TRUE(rows(*reader).empty());
}

TEST_F(CsvReaderTest, ProjectionReadsOnlyRequestedColumnsInOrder) {
  auto reader = open({write("p.csv", "a,b,c,d\n1,x,2.5,true\n2,y,3.5,false\n")},
                     {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:int,b:string,c:double,d:boolean");
  std::vector<Batch> batches;
  reader->read_split(0, {3, 0}, [&](Batch b) { batches.push_back(b); });
  ASSERT_EQ(batches.size(), 1u);
  ASSERT_EQ(batches[0].num_columns(), 2u);
  EXPECT_EQ(batches[0].column(0)->type()->id(), TypeId::kBoolean);
  EXPECT_EQ(batches[0].column(1)->type()->id(), TypeId::kInt);
  EXPECT_EQ(rows(*reader, {3, 0}), (Rows{{"true", "1"}, {"false", "2"}}));
  EXPECT_EQ(rows(*reader, {1, 1}), (Rows{{"x", "x"}, {"y", "y"}}));
}

TEST_F(CsvReaderTest, PathsDirectoriesAndGlobs) {
  write("dir/f1.csv", "a,b\n1,x\na,b\n2,y\n");
  write("dir/f2.csv", "c,d\n3,z\n");
  write("dir/_skip.csv", "c,d\n99,z\n");
  write("dir/.hidden.csv", "c,d\n98,z\n");
  fs::create_directories(dir_ / "dir" / "sub");
  write("dir/sub/nested.csv", "c,d\n97,z\n");
  // The first line of the largest file names the columns; each file drops its first line;
  // inference drops lines equal to the header, not other files' headers.
  auto reader = open({(dir_ / "dir").string()}, {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:string,b:string");
  EXPECT_EQ(rows(*reader), (Rows{{"1", "x"}, {"a", "b"}, {"2", "y"}, {"3", "z"}}));
  EXPECT_EQ(reader->input_files().size(), 2u);
  EXPECT_EQ(reader->input_files()[0], "file://" + (dir_ / "dir" / "f1.csv").string());
  reader = open({(dir_ / "dir" / "f*.csv").string()}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader).size(), 4u);
  reader = open({"file://" + (dir_ / "dir" / "f2.csv").string()}, {{"header", "true"}});
  EXPECT_EQ(rows(*reader), (Rows{{"3", "z"}}));
  const std::string missing = (dir_ / "nope.csv").string();
  try {
    open({missing}, {});
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kAnalysis);
    EXPECT_EQ(e.error_class(), "PATH_NOT_FOUND");
    EXPECT_EQ(e.message(), "Path does not exist: file:" + missing + ".");
    EXPECT_EQ(e.params().at("path"), "file:" + missing);
  }
  EXPECT_THROW(open({(dir_ / "x*.csv").string()}, {}), SparkError);
  fs::create_directories(dir_ / "empty");
  try {
    open({(dir_ / "empty").string()}, {});
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "UNABLE_TO_INFER_SCHEMA");
  }
  // Empty files: no columns, no rows.
  reader = open({write("empty.csv", "")}, {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_TRUE(reader->schema().empty());
  reader = open({write("headonly.csv", "a,b\n")}, {{"header", "true"}, {"inferSchema", "true"}});
  EXPECT_EQ(types(*reader), "a:string,b:string");
  EXPECT_TRUE(rows(*reader).empty());
}

TEST_F(CsvReaderTest, CompressedFiles) {
  // Written with the system's gzip, bzip2 and zstd when they are installed.
  std::string text = "a,b\n";
  for (int i = 0; i < 5000; ++i) text += std::to_string(i) + ",x" + std::to_string(i) + "\n";
  const std::string plain = write("c.csv", text);
  int checked = 0;
  for (const auto& [tool, ext] : std::vector<std::pair<std::string, std::string>>{
           {"gzip", ".gz"}, {"bzip2", ".bz2"}, {"zstd -q", ".zst"}}) {
    const std::string compressed = plain + ext;
    const std::string cmd = tool + " -c " + plain + " > " + compressed + " 2>/dev/null";
    if (std::system(cmd.c_str()) != 0 || fs::file_size(compressed) == 0) continue;
    ++checked;
    auto reader = open({compressed}, {{"header", "true"}, {"inferSchema", "true"}});
    EXPECT_EQ(reader->num_splits(), 1u) << ext;
    EXPECT_EQ(types(*reader), "a:int,b:string") << ext;
    Rows r = rows(*reader);
    ASSERT_EQ(r.size(), 5000u) << ext;
    EXPECT_EQ(r[4999], (std::vector<std::string>{"4999", "x4999"})) << ext;
    fs::remove(compressed);
  }
  if (checked == 0) GTEST_SKIP() << "no compressor found";
}

TEST_F(CsvReaderTest, OptionErrors) {
  const std::string p = write("o.csv", "a\n1\n");
  auto expect_class = [&](std::map<std::string, std::string> o, const std::string& cls) {
    try {
      open({p}, o);
      FAIL() << cls;
    } catch (const SparkError& e) {
      EXPECT_EQ(e.error_class(), cls);
    }
  };
  expect_class({{"header", "yes"}}, "_LEGACY_ERROR_TEMP_2147");
  expect_class({{"sep", "\\x"}}, "INVALID_DELIMITER_VALUE.UNSUPPORTED_SPECIAL_CHARACTER");
  expect_class({{"sep", "\\"}}, "INVALID_DELIMITER_VALUE.SINGLE_BACKSLASH");
  expect_class({{"encoding", "latin1"}}, "INVALID_PARAMETER_VALUE.CHARSET");
  expect_class({{"timeZone", "Mars/Base"}}, "INVALID_TIMEZONE");
  ReadRequest r;
  r.format = "foo";
  r.paths = {p};
  try {
    open_reader(r);
    FAIL();
  } catch (const SparkError& e) {
    EXPECT_EQ(e.error_class(), "DATA_SOURCE_NOT_FOUND");
  }
  // Latin-1 text is decoded to UTF-8 (and grows: every line must still be read).
  std::string latin1 = "a\n";
  for (int i = 0; i < 200; ++i) latin1 += "\xE9\xE9\xE9\xE9\n";
  latin1 += "caf\xE9\n";
  auto reader = open({write("l1.csv", latin1)}, {{"header", "true"}, {"encoding", "ISO-8859-1"}});
  Rows decoded = rows(*reader);
  ASSERT_EQ(decoded.size(), 201u);
  EXPECT_EQ(decoded.back(), (std::vector<std::string>{"caf\xC3\xA9"}));
}

// A file read in many small splits gives exactly the rows of a single-split read.
TEST_F(CsvReaderTest, SplitsCoverEveryLineOnce) {
  std::mt19937_64 rng(7);
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    std::string text = "id,name,amount,ts" + eol;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      std::string name = "n" + std::to_string(rng() % 1000);
      if (i % 7 == 0) name = "\"quoted, " + name + "\"";
      if (i % 11 == 0) name = "";
      text += std::to_string(i) + "," + name + "," + std::to_string(rng() % 100000) + "." +
              std::to_string(rng() % 100) + ",2023-01-" + std::to_string(1 + i % 28) + " 10:" +
              std::to_string(10 + i % 50) + ":00" + eol;
      if (i % 1000 == 0) text += eol;  // blank lines are skipped
    }
    const std::string path = write("big.csv", text);
    config_.set("spark.ember.io.csv.splitBytes", "4096");
    auto split_reader = open({path}, {{"header", "true"}, {"inferSchema", "true"}});
    ASSERT_GT(split_reader->num_splits(), 50u);
    EXPECT_EQ(types(*split_reader), "id:int,name:string,amount:double,ts:timestamp");
    config_.set("spark.ember.io.csv.splitBytes", "1000000000");
    auto whole_reader = open({path}, {{"header", "true"}, {"inferSchema", "true"}});
    ASSERT_EQ(whole_reader->num_splits(), 1u);
    Rows a = rows(*split_reader), b = rows(*whole_reader);
    ASSERT_EQ(a.size(), static_cast<size_t>(n));
    EXPECT_EQ(a, b);
    // Splits read concurrently give the same rows.
    std::vector<Rows> parts(split_reader->num_splits());
    std::vector<std::thread> threads;
    std::atomic<size_t> next{0};
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&] {
        for (size_t s; (s = next++) < parts.size();) {
          split_reader->read_split(s, {0, 1, 2, 3}, [&](Batch batch) {
            for (int64_t r = 0; r < batch.num_rows; ++r) {
              std::vector<std::string> row;
              for (size_t c = 0; c < batch.num_columns(); ++c) row.push_back(show(*batch.column(c), r));
              parts[s].push_back(row);
            }
          });
        }
      });
    }
    for (auto& t : threads) t.join();
    Rows c;
    for (auto& part : parts) c.insert(c.end(), part.begin(), part.end());
    EXPECT_EQ(a, c);
    for (int i = 0; i < n; i += 997) EXPECT_EQ(a[static_cast<size_t>(i)][0], std::to_string(i));
  }
}

TEST_F(CsvReaderTest, LargeBatchesSplitAt64KRows) {
  std::string text;
  for (int i = 0; i < 150000; ++i) text += std::to_string(i) + "\n";
  config_.set("spark.ember.io.csv.splitBytes", "1000000000");
  auto reader = open({write("n.csv", text)}, {{"inferSchema", "true"}});
  std::vector<int64_t> sizes;
  int64_t next = 0;
  bool ordered = true;
  reader->read_split(0, {0}, [&](Batch b) {
    sizes.push_back(b.num_rows);
    const int32_t* v = b.column(0)->values<int32_t>();
    for (int64_t r = 0; r < b.num_rows; ++r) ordered &= v[r] == next++;
  });
  EXPECT_EQ(sizes, (std::vector<int64_t>{65536, 65536, 18928}));
  EXPECT_TRUE(ordered);
}

}  // namespace
}  // namespace ember::io
