// String collations: name parsing and normalization, the collated string type's forms, and
// collation keys whose byte order is the collation's.

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "types/collation.h"
#include "types/data_type.h"

namespace ember {
namespace {

std::string key(const std::string& collation_name, const std::string& s) {
  std::string out;
  append_collation_key(collation(collation_id(collation_name)), s.data(), s.size(), out);
  return out;
}

TEST(Collation, NamesNormalize) {
  EXPECT_EQ(collation_id("utf8_binary"), kUtf8BinaryCollation);
  EXPECT_EQ(collation(collation_id("utf8_lcase")).name, "UTF8_LCASE");
  EXPECT_EQ(collation(collation_id("Utf8_Lcase_Rtrim")).name, "UTF8_LCASE_RTRIM");
  EXPECT_EQ(collation_id("UTF8_LCASE"), collation_id("utf8_lcase"));
  EXPECT_EQ(collation_full_name(collation_id("utf8_lcase")), "SYSTEM.BUILTIN.UTF8_LCASE");
  for (const char* bad : {"nonexist", "utf8_binary_ltrim", "UTF8_LCASE_CI", "utf8"})
    EXPECT_THROW(collation_id(bad), SparkError) << bad;
  if (!collations_have_icu()) return;
  EXPECT_EQ(collation(collation_id("unicode_ci")).name, "UNICODE_CI");
  EXPECT_EQ(collation(collation_id("de_ai_ci")).name, "de_CI_AI");
  EXPECT_EQ(collation(collation_id("UNICODE_CS_AS")).name, "UNICODE");
  EXPECT_EQ(collation(collation_id("sr_cyrl_srb")).name, "sr_Cyrl_SRB");
  EXPECT_EQ(collation(collation_id("EN_usa")).name, "en_USA");
  for (const char* bad : {"unicode_ci_cs", "unicode_ci_ci", "unicode_xx", "de_"})
    EXPECT_THROW(collation_id(bad), SparkError) << bad;
}

TEST(Collation, TypeForms) {
  const TypePtr t = DataType::string(collation_id("UTF8_LCASE"));
  EXPECT_EQ(t->simple_string(), "string collate UTF8_LCASE");
  EXPECT_EQ(t->sql(), "STRING COLLATE UTF8_LCASE");
  EXPECT_EQ(t->json(), "\"string\"");
  EXPECT_FALSE(t->equals(*DataType::string()));
  EXPECT_TRUE(t->equals(*parse_data_type("string collate utf8_lcase")));
  EXPECT_TRUE(DataType::string(0)->equals(*DataType::string()));
  // The field's metadata carries the collations of its strings, nested ones by path.
  const TypePtr s = DataType::struct_({{"a", DataType::array(t), true, "{}"},
                                       {"m", DataType::map(t, DataType::string()), true, "{\"comment\":\"x\"}"},
                                       {"p", DataType::string(), true, "{}"}});
  const std::string json = s->json();
  EXPECT_NE(json.find("\"__COLLATIONS\":{\"a.element\":\"spark.UTF8_LCASE\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"comment\":\"x\",\"__COLLATIONS\":{\"m.key\":\"spark.UTF8_LCASE\"}}"), std::string::npos)
      << json;
  EXPECT_TRUE(parse_json_type(json)->equals(*DataType::struct_({{"a", DataType::array(t), true, "{}"},
                                                                {"m", DataType::map(t, DataType::string()), true, "{}"},
                                                                {"p", DataType::string(), true, "{}"}})));
}

TEST(Collation, LowercaseKeys) {
  EXPECT_EQ(key("UTF8_LCASE", "AbC"), "abc");
  EXPECT_EQ(key("UTF8_LCASE", "AbC"), key("UTF8_LCASE", "aBc"));
  EXPECT_LT(key("UTF8_LCASE", "a"), key("UTF8_LCASE", "B"));
  EXPECT_EQ(key("UTF8_LCASE_RTRIM", "Ab  "), "ab");
  EXPECT_EQ(key("UTF8_BINARY_RTRIM", "Ab  "), "Ab");
  EXPECT_EQ(key("UTF8_LCASE", " a"), " a");  // only trailing spaces, and only with RTRIM
  if (!collations_have_icu()) return;
  EXPECT_EQ(key("UTF8_LCASE", "\u0130"), "i\u0307");     // İ: i and a combining dot
  EXPECT_EQ(key("UTF8_LCASE", "\u03C2"), key("UTF8_LCASE", "\u03A3"));  // ς and Σ
  EXPECT_NE(key("UTF8_LCASE", "\u00DF"), key("UTF8_LCASE", "SS"));     // ß has no simple mapping
  EXPECT_EQ(key("UTF8_LCASE", "\u00C4"), "\u00E4");
}

TEST(Collation, IcuKeys) {
  if (!collations_have_icu()) GTEST_SKIP() << "built without ICU";
  EXPECT_LT(key("UNICODE", "a"), key("UNICODE", "A"));
  EXPECT_LT(key("UNICODE", "A"), key("UNICODE", "\u00E4"));
  EXPECT_LT(key("UNICODE", "\u00C4"), key("UNICODE", "b"));
  EXPECT_NE(key("UNICODE", "a"), key("UNICODE", "A"));
  EXPECT_EQ(key("UNICODE_CI", "a"), key("UNICODE_CI", "A"));
  EXPECT_NE(key("UNICODE_CI", "a"), key("UNICODE_CI", "\u00E4"));
  EXPECT_EQ(key("UNICODE_CI_AI", "a"), key("UNICODE_CI_AI", "\u00C4"));
  EXPECT_NE(key("UNICODE_AI", "a"), key("UNICODE_AI", "A"));  // case level kept
  EXPECT_EQ(key("UNICODE_AI", "a"), key("UNICODE_AI", "\u00E4"));
  EXPECT_EQ(key("UNICODE_CI_RTRIM", "Ab "), key("UNICODE_CI", "aB"));
  // Invalid UTF-8 reads as U+FFFD.
  EXPECT_EQ(key("UNICODE", std::string("\xFF", 1)), key("UNICODE", "\uFFFD"));
  // Swedish sorts ä after z; the root collation does not.
  EXPECT_LT(key("sv", "z"), key("sv", "\u00E4"));
  EXPECT_LT(key("UNICODE", "\u00E4"), key("UNICODE", "z"));
}

}  // namespace
}  // namespace ember
