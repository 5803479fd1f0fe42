// The collation-aware searches of functions/collation_search.h on inputs queries reach only
// with difficulty: the dotted I and its halves, RTRIM's trailing spaces, Java's HashMap order
// of translate's dictionaries, and the walk Spark's UTF8_LCASE trims take.

#include "functions/collation_search.h"

#include <gtest/gtest.h>

namespace ember::functions {
namespace {

const Collation& named(const char* name) { return collation(collation_id(name)); }

TEST(CollationSearch, LowercaseMatchesNeverSplitTheDottedI) {
  const Collation& lcase = named("UTF8_LCASE");
  EXPECT_FALSE(collated_contains(lcase, "İ", "i"));
  EXPECT_TRUE(collated_contains(lcase, "İ", "i\u0307"));
  EXPECT_TRUE(collated_contains(lcase, "i\u0307", "İ"));
  EXPECT_FALSE(collated_starts_with(lcase, "İx", "i"));
  EXPECT_FALSE(collated_ends_with(lcase, "xİ", "\u0307"));
  EXPECT_TRUE(collated_ends_with(lcase, "xİ", "I\u0307"));
  EXPECT_TRUE(collated_contains(lcase, "ΣΑΣ", "ς"));
  EXPECT_FALSE(collated_contains(lcase, "straße", "SS"));
}

TEST(CollationSearch, MatchStartsOverlap) {
  EXPECT_EQ(collated_match_starts(named("UTF8_LCASE"), "aAa", "AA"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(collated_match_starts(named("UTF8_LCASE"), "日本İ本", "i\u0307本"),
            (std::vector<int64_t>{2}));
  if (collations_have_icu())
    EXPECT_EQ(collated_match_starts(named("UNICODE_CI"), "aAa", "AA"),
              (std::vector<int64_t>{0, 1}));
}

TEST(CollationSearch, InstrAndLocate) {
  const Collation& lcase = named("UTF8_LCASE");
  EXPECT_EQ(collated_instr(lcase, "aBcb", "b", 1, 2), 4);
  EXPECT_EQ(collated_instr(lcase, "aBcb", "b", -1, 2), 2);
  EXPECT_EQ(collated_instr(lcase, "abc", "", 0, 1), 1);
  EXPECT_EQ(collated_instr(lcase, "abc", "b", 0, 1), 0);
  EXPECT_EQ(collated_instr(named("UTF8_LCASE_RTRIM"), "abc  ", "C  ", 1, 1), 3);
  EXPECT_EQ(collated_locate(lcase, "abc", "", 5), 1);
  EXPECT_EQ(collated_locate(lcase, "abcB", "b", 3), 4);
}

TEST(CollationSearch, ReplaceSplitAndSubstringIndex) {
  const Collation& lcase = named("UTF8_LCASE");
  EXPECT_EQ(collated_replace(lcase, "aXbxİ", "x", "-"), "a-b-İ");
  EXPECT_EQ(collated_replace(lcase, "xİy", "i\u0307", "I"), "xIy");
  EXPECT_EQ(collated_split(lcase, "aXbxc", "x"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(collated_split(lcase, "", "x"), (std::vector<std::string>{""}));
  EXPECT_EQ(collated_split(named("UTF8_BINARY_RTRIM"), "a b", " "),
            (std::vector<std::string>{"a b"}));
  EXPECT_EQ(collated_substring_index(lcase, "aXbXc", "x", 2), "aXb");
  EXPECT_EQ(collated_substring_index(lcase, "aXbXc", "x", -2), "bXc");
  EXPECT_EQ(collated_substring_index(lcase, "aaa", "AA", -1), "");
  EXPECT_EQ(collated_substring_index(lcase, "abc", "x", 3), "abc");
}

TEST(CollationSearch, JavaHashMapOrder) {
  // 'B' (66) and 'b' (98) share bucket 2 of 16 and keep their insertion order; 'E' (69, bucket
  // 5) comes before 'é' (233, bucket 9) whatever order they were put in.
  EXPECT_EQ(java_hash_map_order(U"bB"), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(java_hash_map_order(U"éE"), (std::vector<size_t>{1, 0}));
}

TEST(CollationSearch, Translate) {
  const Collation& lcase = named("UTF8_LCASE");
  EXPECT_EQ(collated_translate(lcase, "aBcAb", "Bb", "xy"), "axcAx");
  EXPECT_EQ(collated_translate(lcase, "ab", "AB", "x"), "x");
  EXPECT_EQ(collated_translate(lcase, "İi\u0307I", "İ", "x"), "xxI");
  EXPECT_EQ(collated_translate(named("UTF8_BINARY_RTRIM"), "aBc", "b", "x"), "aBc");
  if (collations_have_icu())
    EXPECT_EQ(collated_translate(named("UNICODE_CI_AI"), "éEe", "éE", "12"), "222");
}

TEST(CollationSearch, Trims) {
  const Collation& lcase = named("UTF8_LCASE");
  EXPECT_EQ(collated_trim(lcase, "xXabcXx", "x", true, true), "abc");
  // Spark's walk looks one code point ahead for the dotted I and leaves the last one unread.
  EXPECT_EQ(collated_trim(lcase, "ii", "İi", true, false), "i");
  EXPECT_EQ(collated_trim(lcase, "i\u0307ix", "İi", true, false), "x");
  EXPECT_EQ(collated_trim(lcase, "xi\u0307i", "İi", false, true), "x");
  // RTRIM keeps trailing spaces unless the set trims spaces.
  EXPECT_EQ(collated_trim(named("UTF8_BINARY_RTRIM"), "abxx  ", "x", false, true), "ab  ");
  EXPECT_EQ(collated_trim(named("UTF8_BINARY_RTRIM"), "abxx  ", "x ", false, true), "ab");
  EXPECT_EQ(collated_trim(named("UTF8_LCASE_RTRIM"), "xab  ", "x ", true, false), "ab  ");
  EXPECT_EQ(collated_trim(named("UTF8_LCASE_RTRIM"), "aé  ", "É", false, true), "a  ");
  if (collations_have_icu())
    EXPECT_EQ(collated_trim(named("UNICODE_CI"), "i\u0307xİ", "İ", true, true), "x");
}

TEST(CollationSearch, FindInSet) {
  EXPECT_EQ(collated_find_in_set(named("UTF8_LCASE"), "B", "a,b"), 2);
  EXPECT_EQ(collated_find_in_set(named("UTF8_LCASE"), "a,b", "a,b"), 0);
  EXPECT_EQ(collated_find_in_set(named("UTF8_BINARY_RTRIM"), "b ", "a,b  ,c"), 2);
  EXPECT_EQ(collated_find_in_set(named("UTF8_LCASE"), "", "a,,b"), 2);
}

}  // namespace
}  // namespace ember::functions
