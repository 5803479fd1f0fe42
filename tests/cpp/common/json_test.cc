#include "common/json.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ember {
namespace {

JsonValue prefix(const std::string& text, const JsonParseOptions& o = {}, size_t* end = nullptr) {
  JsonValue v;
  size_t e = parse_json_prefix(text, o, &v);
  if (end) *end = e;
  return v;
}

TEST(JsonParseTest, StrictNumbers) {
  EXPECT_EQ(prefix("-12.5e3").text, "-12.5e3");
  for (const char* bad : {"01", "+1", ".5", "1.", "1e", "-", "1x", "NaN", "Infinity"})
    EXPECT_THROW(prefix(bad), std::invalid_argument) << bad;
}

TEST(JsonParseTest, NonNumericNumbersAndLeadingZeros) {
  JsonParseOptions o;
  o.allow_non_numeric_numbers = true;
  o.allow_numeric_leading_zeros = true;
  EXPECT_EQ(prefix("NaN", o).text, "NaN");
  EXPECT_EQ(prefix("-Infinity", o).text, "-Infinity");
  EXPECT_EQ(prefix("007", o).text, "7");
  EXPECT_EQ(prefix("-00.5", o).text, "-0.5");
  EXPECT_FALSE(json_number_is_integral(prefix("NaN", o)));
  EXPECT_TRUE(json_number_is_integral(prefix("-7", o)));
  EXPECT_THROW(prefix("NaNa", o), std::invalid_argument);
}

TEST(JsonParseTest, QuotesNamesAndComments) {
  EXPECT_THROW(prefix("{'a': 1}"), std::invalid_argument);
  EXPECT_THROW(prefix("{a: 1}"), std::invalid_argument);
  EXPECT_THROW(prefix("[1 /* c */]"), std::invalid_argument);
  JsonParseOptions o;
  o.allow_single_quotes = true;
  o.allow_unquoted_field_names = true;
  o.allow_comments = true;
  JsonValue v = prefix("{'a': 'x\"y', b_1$: // line\n [1, /* block */ 2]}", o);
  ASSERT_EQ(v.members.size(), 2u);
  EXPECT_EQ(v.members[0].first, "a");
  EXPECT_EQ(v.members[0].second.text, "x\"y");
  EXPECT_EQ(v.members[1].first, "b_1$");
  EXPECT_EQ(v.members[1].second.items.size(), 2u);
}

TEST(JsonParseTest, EscapesAndControlCharacters) {
  EXPECT_EQ(prefix("\"\\u00e9\\ud83d\\ude00\\n\"").text, "\xC3\xA9\xF0\x9F\x98\x80\n");
  EXPECT_THROW(prefix("\"a\tb\""), std::invalid_argument);
  EXPECT_THROW(prefix("\"\\q\""), std::invalid_argument);
  JsonParseOptions o;
  o.allow_unquoted_control_chars = true;
  o.allow_backslash_escaping_any = true;
  EXPECT_EQ(prefix("\"a\tb\"", o).text, "a\tb");
  EXPECT_EQ(prefix("\"\\q\"", o).text, "q");
}

TEST(JsonParseTest, PrefixStopsAfterTheFirstValue) {
  size_t end = 0;
  JsonValue v = prefix("  {\"a\": [true, null]} trailing", {}, &end);
  EXPECT_EQ(end, 21u);
  EXPECT_EQ(json_text(v), "{\"a\":[true,null]}");
  EXPECT_THROW(prefix("{\"a\": 1"), std::invalid_argument);
  EXPECT_THROW(prefix("truex"), std::invalid_argument);
  EXPECT_THROW(parse_json("{} x"), std::invalid_argument);
}

}  // namespace
}  // namespace ember
