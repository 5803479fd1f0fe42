#include "functions/xpath.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ember::functions::xpath {
namespace {

/// Evaluates `path` over `xml`; the document lives until the next call, so that the nodes of
/// the result stay readable.
Value eval(const std::string& xml, const std::string& path) {
  static xml::Document d;
  std::string error;
  EXPECT_EQ(d.parse(xml, &error), xml::ParseStatus::kOk) << error;
  bool unsupported = false;
  auto p = Path::compile(path, &error, &unsupported);
  EXPECT_TRUE(p) << path << ": " << error;
  return p->evaluate(d);
}

std::string str(const std::string& xml, const std::string& path) { return to_string(eval(xml, path)); }

TEST(XPathTest, NumberToString) {
  EXPECT_EQ(number_to_string(1.0), "1");
  EXPECT_EQ(number_to_string(-0.0), "0");
  EXPECT_EQ(number_to_string(0.5), "0.5");
  EXPECT_EQ(number_to_string(1e21), "1000000000000000000000");
  EXPECT_EQ(number_to_string(1.0 / 3 / 1e6), "0.0000003333333333333333");
  EXPECT_EQ(number_to_string(NAN), "NaN");
  EXPECT_EQ(number_to_string(-INFINITY), "-Infinity");
}

TEST(XPathTest, StringToNumber) {
  EXPECT_EQ(string_to_number("  12 "), 12);
  EXPECT_EQ(string_to_number("-.5"), -0.5);
  EXPECT_EQ(string_to_number("5."), 5);
  for (const char* bad : {"", "+1", "1e3", "-", ".", "1 2"}) EXPECT_TRUE(std::isnan(string_to_number(bad))) << bad;
}

TEST(XPathTest, LocationPathsAndPredicates) {
  const std::string doc = "<a x='1'><b>1</b><b>2</b><c><b>3</b></c></a>";
  EXPECT_EQ(eval(doc, "//b").nodes.size(), 3u);
  EXPECT_EQ(str(doc, "a/b[last()]"), "2");
  EXPECT_EQ(str(doc, "a/b[1.9]"), "1");  // numeric predicates truncate
  EXPECT_EQ(str(doc, "(//b)[3]"), "3");
  EXPECT_EQ(str(doc, "//b[. > 1][1]"), "2");
  EXPECT_EQ(str(doc, "a/@x"), "1");
  EXPECT_EQ(str(doc, "a/c/b/../../b[2]"), "2");
  EXPECT_EQ(str(doc, "a/c/preceding-sibling::*[1]"), "2");
  EXPECT_EQ(str(doc, "count(a/b | //b)"), "3");
  EXPECT_EQ(str(doc, "position()"), "-1");
}

TEST(XPathTest, FunctionsAndComparisons) {
  const std::string doc = "<a><b>1</b><b>2</b></a>";
  EXPECT_EQ(str(doc, "sum(//b) div count(//b)"), "1.5");
  EXPECT_EQ(str(doc, "//b = 2"), "true");
  EXPECT_EQ(str(doc, "//b != 2"), "true");
  EXPECT_EQ(str(doc, "//c = false()"), "true");
  EXPECT_EQ(str(doc, "substring('12345', 1.5, 2.6)"), "234");
  EXPECT_EQ(str(doc, "string-length('\xF0\x9F\x98\x80')"), "2");  // UTF-16 code units
  EXPECT_EQ(str(doc, "substring('\xF0\x9F\x98\x80x', 2)"), "?x");
  EXPECT_EQ(str(doc, "translate('abc', 'abc', 'AB')"), "AB");
  EXPECT_EQ(str(doc, "normalize-space('  a   b ')"), "a b");
  EXPECT_EQ(str(doc, "round(-2.5)"), "-2");
  EXPECT_EQ(str(doc, "-7 mod 2"), "-1");
  EXPECT_EQ(str(doc, "a/div div 2"), "NaN");
}

TEST(XPathTest, CompileErrors) {
  for (const char* bad : {"", "a/", "a[", "--1", "1e3", "foo(a)", "count(a, a)", "concat('x')", "a b", "1/a",
                          "'x'[1]", "foo::a", "a/processing-instruction(p)"}) {
    std::string error;
    bool unsupported = false;
    EXPECT_FALSE(Path::compile(bad, &error, &unsupported)) << bad;
  }
}

TEST(XPathTest, EvaluationErrors) {
  xml::Document d;
  std::string error;
  ASSERT_EQ(d.parse("<a/>", &error), xml::ParseStatus::kOk);
  bool unsupported = false;
  for (const char* path : {"count(1)", "$x", "true()[1]", "p:f()"}) {
    auto p = Path::compile(path, &error, &unsupported);
    ASSERT_TRUE(p) << path;
    EXPECT_THROW(p->evaluate(d), EvalError) << path;
  }
}

}  // namespace
}  // namespace ember::functions::xpath
