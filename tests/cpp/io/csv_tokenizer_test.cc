#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "io/csv_options.h"
#include "io/csv_tokenizer.h"

namespace ember::io {
namespace {

CsvOptions options(UnescapedQuotes mode, std::string delimiter = ",") {
  CsvOptions o;
  o.unescaped_quotes = mode;
  o.delimiter = std::move(delimiter);
  return o;
}

// The fields of one line, "<null>" for nulls.
std::vector<std::string> line(const CsvTokenizer& t, const std::string& text) {
  std::vector<CsvField> fields(16);
  const int n = t.split_line(text.data(), text.data() + text.size(), fields.data(), 16, 16);
  std::vector<std::string> out;
  std::string scratch;
  for (int i = 0; i < n; ++i) {
    const CsvField& f = fields[static_cast<size_t>(i)];
    out.push_back(f.flags & CsvField::kNull ? "<null>" : std::string(t.text(f, scratch)));
  }
  return out;
}

// The records of a multiLine text, each as its fields.
std::vector<std::vector<std::string>> records(const CsvTokenizer& t, const std::string& text) {
  std::vector<std::vector<std::string>> out;
  const char* p = text.data();
  const char* end = p + text.size();
  const Newline nl = t.detect_newline(p, end);
  t.forget_carried_fields();
  std::string scratch;
  while (p < end || t.resumes_at(p)) {
    std::vector<CsvField> fields(16);
    int count = 0;
    const char* record_end;
    p = t.split_record(p, end, nl, fields.data(), 16, &count, &record_end);
    std::vector<std::string> row;
    for (int i = 0; i < count; ++i) {
      const CsvField& f = fields[static_cast<size_t>(i)];
      row.push_back(f.flags & CsvField::kNull ? "<null>" : std::string(t.text(f, scratch)));
    }
    out.push_back(row);
  }
  return out;
}

using Row = std::vector<std::string>;

TEST(CsvTokenizerTest, FieldsReadAfterAnUnescapedQuoteStayValidForTheWholeRecord) {
  // Several fields of one record come from the slow path; each keeps its own text.
  const CsvTokenizer t(options(UnescapedQuotes::kStopAtDelimiter));
  EXPECT_EQ(line(t, R"("a"b,"c"d,e,"f"g)"), (Row{R"("a"b)", R"("c"d)", "e", R"("f"g)"}));
  const CsvTokenizer closing(options(UnescapedQuotes::kStopAtClosingQuote));
  EXPECT_EQ(line(closing, R"("a"b",x,"c"d")"), (Row{R"(a"b)", "x", R"(c"d)"}));
  const CsvTokenizer back(options(UnescapedQuotes::kBackToDelimiter));
  EXPECT_EQ(line(back, R"("a"b,"c"d,e,"f"g)"), (Row{"ab", "cd", "e", "fg"}));
}

TEST(CsvTokenizerTest, EachModeOnTextAfterAClosingQuote) {
  const std::string text = R"(x,"a,b"c,d)";
  EXPECT_EQ(line(CsvTokenizer(options(UnescapedQuotes::kStopAtDelimiter)), text),
            (Row{"x", R"("a,b"c)", "d"}));
  EXPECT_EQ(line(CsvTokenizer(options(UnescapedQuotes::kStopAtClosingQuote)), text),
            (Row{"x", R"(a,b"c,d)"}));
  EXPECT_EQ(line(CsvTokenizer(options(UnescapedQuotes::kBackToDelimiter)), text),
            (Row{"x", "a", "bc,d"}));
  EXPECT_EQ(line(CsvTokenizer(options(UnescapedQuotes::kSkipValue)), text),
            (Row{"x", "<null>", "d"}));
  EXPECT_THROW(line(CsvTokenizer(options(UnescapedQuotes::kRaiseError)), text), CsvSyntaxError);
  // Well-formed quoting never reaches the mode (a quoted empty value reads as emptyValue).
  EXPECT_EQ(line(CsvTokenizer(options(UnescapedQuotes::kRaiseError)), R"("a\"b" ,"",c)"),
            (Row{R"(a"b)", "", "c"}));
}

TEST(CsvTokenizerTest, OpenQuoteAtTheEndOfTheInput) {
  const CsvTokenizer t(options(UnescapedQuotes::kStopAtDelimiter));
  EXPECT_EQ(line(t, R"(a,"b,c)"), (Row{"a", "b,c"}));
  EXPECT_EQ(line(t, R"(a,")"), (Row{"a", R"(")"}));
  // An escape waiting for its character is dropped.
  EXPECT_EQ(line(t, R"(a,"\)"), (Row{"a", "<null>"}));
}

TEST(CsvTokenizerTest, BackToDelimiterEndsARecordAtTheFirstLineEndItSplits) {
  // The record ends where the split text held a line end; the next record starts with the
  // fields after it and reads its own first line end as a delimiter.
  const CsvTokenizer t(options(UnescapedQuotes::kBackToDelimiter));
  EXPECT_EQ(records(t, "1,\"a\"b,c\n2,\"x\"y,z\n3,w\n"),
            (std::vector<Row>{{"1", "ab", "c"}, {"2", "xy,z\n3,w\n"}}));
  EXPECT_EQ(records(t, "1,\"a\nb\"c,d\ne,f\ng\n"),
            (std::vector<Row>{{"1", "a"}, {"bc,d\ne,f\ng\n"}}));
  EXPECT_EQ(records(t, "1,\"a\nb\nc,d\"e\nf,g\nh\n"),
            (std::vector<Row>{{"1", "a"}, {"b", "c", "de\nf,g\nh\n"}}));
  EXPECT_EQ(records(t, "1,\"a\nb\"\"c\",d\ne\nf\n"),
            (std::vector<Row>{{"1", "a"}, {"b\"c", "d", "e"}, {"f"}}));
}

TEST(CsvTokenizerTest, CarriedFieldsAreForgottenBeforeANewWalk) {
  const CsvTokenizer t(options(UnescapedQuotes::kBackToDelimiter));
  const std::string text = "1,\"a\nb\"c,d\n";
  std::vector<CsvField> fields(16);
  int count = 0;
  const char* record_end;
  const char* next = t.split_record(text.data(), text.data() + text.size(), Newline::kLf,
                                    fields.data(), 16, &count, &record_end);
  EXPECT_TRUE(t.resumes_at(next));
  t.forget_carried_fields();
  EXPECT_FALSE(t.resumes_at(next));
}

TEST(CsvTokenizerTest, SeveralCharacterDelimiters) {
  // STOP_AT_DELIMITER keeps its raw text to the delimiter.
  const CsvTokenizer t(options(UnescapedQuotes::kStopAtDelimiter, "||"));
  EXPECT_EQ(line(t, R"(x||"a"b||c)"), (Row{"x", R"("a"b)", "c"}));
  // The other modes read the delimiter whole where it becomes part of a value.
  const CsvTokenizer closing(options(UnescapedQuotes::kStopAtClosingQuote, "||"));
  EXPECT_EQ(line(closing, R"(x||"a"||c)"), (Row{"x", "a", "c"}));
  EXPECT_EQ(line(closing, R"(x||"a"b||c)"), (Row{"x", R"(a"b||c)"}));
  const CsvTokenizer back(options(UnescapedQuotes::kBackToDelimiter, "||"));
  EXPECT_EQ(line(back, R"("a||b"c||d)"), (Row{"a", "bc||d"}));
  // SKIP_VALUE skips to the end of the line; in multiLine mode a skip that passed a delimiter
  // leaves an empty record after it (Spark's parser fails when more lines follow).
  const CsvTokenizer skip(options(UnescapedQuotes::kSkipValue, "||"));
  EXPECT_EQ(line(skip, R"(x||"a"b||c||d)"), (Row{"x", "<null>"}));
  EXPECT_EQ(records(skip, "1||\"a\"b||c\n"), (std::vector<Row>{{"1", "<null>"}, {"<null>", "<null>"}}));
  EXPECT_EQ(records(skip, "1||\"a\"b\n2||d\n"), (std::vector<Row>{{"1", "<null>"}, {"2", "d"}}));
}

}  // namespace
}  // namespace ember::io
