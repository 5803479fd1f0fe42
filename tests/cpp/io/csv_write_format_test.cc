#include "io/csv_write_format.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

namespace ember::io {
namespace {

std::string field(std::string_view v, const CsvWriteOptions& o) {
  std::string line;
  append_csv_field(line, v, o);
  return line;
}

CsvWriteOptions with(std::map<std::string, std::string> raw) { return parse_csv_write_options(Options(raw), nullptr); }

TEST(CsvWriteFormatTest, QuotesWhatTheReaderWouldSplit) {
  const CsvWriteOptions o;
  EXPECT_EQ(field("plain", o), "plain");
  EXPECT_EQ(field("a,b", o), "\"a,b\"");
  EXPECT_EQ(field("a\nb", o), "\"a\nb\"");
  EXPECT_EQ(field("a\rb", o), "\"a\rb\"");
  EXPECT_EQ(field("a\tb", o), "a\tb");
  EXPECT_EQ(field("q\"x", o), "\"q\\\"x\"");
  // Inside quotes the escape character is itself escaped; outside it stays as it is.
  EXPECT_EQ(field("x\\y\"", o), "\"x\\\\y\\\"\"");
  EXPECT_EQ(field("x\\", o), "x\\");
}

TEST(CsvWriteFormatTest, TrimsAndWritesEmptyValues) {
  EXPECT_EQ(field("  x  ", CsvWriteOptions()), "x");
  EXPECT_EQ(field("   ", CsvWriteOptions()), "\"\"");
  EXPECT_EQ(field("", with({{"emptyvalue", "E"}})), "E");
  EXPECT_EQ(field(" x ", with({{"ignoreleadingwhitespace", "false"}})), " x");
  EXPECT_EQ(field(" x ", with({{"ignoreleadingwhitespace", "false"}, {"ignoretrailingwhitespace", "false"}})), " x ");
}

TEST(CsvWriteFormatTest, Options) {
  EXPECT_EQ(field("qabx", with({{"sep", "ab"}})), "\"qabx\"");
  EXPECT_EQ(field("xay", with({{"sep", "ab"}})), "xay");
  EXPECT_EQ(field("x", with({{"quoteall", "true"}})), "\"x\"");
  EXPECT_EQ(field("q'x", with({{"quote", "'"}, {"escape", "'"}})), "'q''x'");
  EXPECT_EQ(field("a\"b", with({{"escape", "#"}})), "\"a#\"b\"");
  EXPECT_EQ(field("q\"x\\\"", with({{"chartoescapequoteescaping", "#"}})), "\"q\\\"x#\\\\\"\"");
  // Without escapeQuotes a quote quotes the value only at its start.
  EXPECT_EQ(field("q\"x", with({{"escapequotes", "false"}})), "q\"x");
  EXPECT_EQ(field("\"", with({{"escapequotes", "false"}})), "\"\\\"\"");
  // An empty quote option quotes with NUL.
  EXPECT_EQ(field("x,y", with({{"quote", ""}})), std::string("\0x,y\0", 5));
  std::string line;
  append_csv_null(line, with({{"nullvalue", "-"}, {"quoteall", "true"}}));
  EXPECT_EQ(line, "\"-\"");
}

TEST(CsvWriteFormatTest, RejectsLongCharacterOptions) {
  for (const char* key : {"quote", "escape", "chartoescapequoteescaping"}) {
    try {
      with({{key, "ab"}});
      FAIL() << key;
    } catch (const SparkError& e) {
      EXPECT_EQ(e.error_class(), "OPTION_VALUE_EXCEEDS_ONE_CHARACTER") << key;
    }
  }
}

}  // namespace
}  // namespace ember::io
