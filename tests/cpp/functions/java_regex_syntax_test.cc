#include <gtest/gtest.h>

#include "common/error.h"
#include "functions/regexp_util.h"

namespace ember::functions {
namespace {

/// Whether Java's Matcher.find would find `pattern` in `s`.
bool finds(const std::string& pattern, const std::string& s) {
  JavaRegex re("rlike");
  return re.find_group(pattern, s, 0).has_value();
}

bool matches(const std::string& pattern, const std::string& s) {
  JavaRegex re("rlike");
  return re.matches(pattern, s);
}

/// The message of the error compiling `pattern` raises, "" when it compiles.
std::string error_of(const std::string& pattern) {
  JavaRegex re("rlike");
  try {
    re.matches(pattern, "");
  } catch (const SparkError& e) {
    return e.what();
  }
  return "";
}

TEST(JavaRegexSyntax, BinaryPropertiesRe2HasNoNameFor) {
  EXPECT_TRUE(matches("\\p{IsAlphabetic}+", "abcé\u216B"));  // Nl counts as alphabetic
  EXPECT_FALSE(matches("\\p{IsAlphabetic}", "1"));
  EXPECT_TRUE(matches("\\p{javaAlphabetic}", "\u0345"));  // Other_Alphabetic, a combining mark
  EXPECT_TRUE(matches("\\p{IsIdeographic}+", "日本\u3007"));
  EXPECT_FALSE(matches("\\p{IsIdeographic}", "a"));
  EXPECT_TRUE(matches("\\p{javaIdeographic}", "語"));
  EXPECT_TRUE(matches("\\p{javaMirrored}+", "()<>«"));
  EXPECT_FALSE(matches("\\p{javaMirrored}", "a"));
  EXPECT_TRUE(matches("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*", "$x_1"));
  EXPECT_FALSE(matches("\\p{javaJavaIdentifierStart}", "1"));
  EXPECT_TRUE(matches("\\p{IsJoin_Control}", "\u200D"));
  EXPECT_TRUE(matches("\\P{IsAlphabetic}", "-"));
}

TEST(JavaRegexSyntax, NegatedMembersOfClasses) {
  EXPECT_TRUE(matches("[^\\p{L}]", "1"));
  EXPECT_FALSE(matches("[^\\p{L}]", "a"));
  EXPECT_TRUE(matches("[\\P{L}x]+", "x1-"));
  EXPECT_FALSE(matches("[\\P{L}x]", "a"));
  EXPECT_TRUE(matches("[\\P{javaLowerCase}x]+", "xA1"));
  EXPECT_FALSE(matches("[\\P{javaLowerCase}x]", "a"));
  EXPECT_TRUE(matches("[\\P{IsAlphabetic}]", "1"));
  EXPECT_TRUE(matches("[a[^b-z]]+", "a1A"));
  EXPECT_FALSE(matches("[a[^b-z]]", "c"));
  EXPECT_TRUE(matches("[^a[b]]", "c"));
  EXPECT_FALSE(matches("[^a[b]]", "b"));
}

TEST(JavaRegexSyntax, ClassIntersections) {
  EXPECT_TRUE(matches("[a-z&&[^aeiou]]+", "bcd"));
  EXPECT_FALSE(matches("[a-z&&[^aeiou]]", "a"));
  EXPECT_TRUE(matches("[a-z&&def]+", "def"));
  EXPECT_FALSE(matches("[a-z&&def]", "a"));
  EXPECT_TRUE(matches("[\\p{L}&&[^\\p{Lu}]]+", "aé"));
  EXPECT_FALSE(matches("[\\p{L}&&[^\\p{Lu}]]", "A"));
  EXPECT_FALSE(matches("[\\p{L}&&[^\\p{Lu}]]", "1"));
  EXPECT_TRUE(matches("[\\w&&\\D&&[^_]]+", "ab"));
  EXPECT_FALSE(matches("[\\w&&\\D&&[^_]]", "_"));
  EXPECT_FALSE(matches("[a&&b]", "a"));  // an empty class matches nothing
  EXPECT_TRUE(matches("[^a&&b]", "a"));
}

TEST(JavaRegexSyntax, LineBreaksAndWhiteSpace) {
  EXPECT_TRUE(matches("a\\Rb", "a\r\nb"));
  EXPECT_TRUE(matches("a\\Rb", "a\u2028b"));
  EXPECT_TRUE(matches("\\v+", "\n\x0B\f\r\u0085\u2028"));
  EXPECT_FALSE(matches("\\v", " "));
  EXPECT_TRUE(matches("\\V", "a"));
  EXPECT_TRUE(matches("\\h+", " \t\u00A0\u3000"));
  EXPECT_TRUE(matches("[\\H]", "a"));
  EXPECT_TRUE(matches("\\s", "\x0B"));  // Java's \s holds \x0B, RE2's does not
  EXPECT_FALSE(matches("\\S", "\x0B"));
  EXPECT_TRUE(finds("a\\z", "xa"));
  EXPECT_TRUE(finds("a\\Z", "xa"));
  EXPECT_FALSE(finds("a\\z", "ab"));
}

TEST(JavaRegexSyntax, EndOfInputBeforeAFinalLineTerminator) {
  JavaRegex re("regexp_extract");
  EXPECT_EQ(re.find_group("b$", "ab\n", 0).value(), "b");
  EXPECT_EQ(re.find_group("(b)\\Z", "ab\r\n", 0).value(), "b");
  EXPECT_EQ(re.find_group("(b)\\Z", "ab\r\n", 1).value(), "b");
  EXPECT_EQ(re.find_group("a$|(b)$", "b\u2028", 1).value(), "b");
  EXPECT_FALSE(finds("b$", "ab\n\n"));
  EXPECT_FALSE(finds("b\\z", "ab\n"));
  EXPECT_FALSE(finds("(?d)b$", "ab\r"));
  EXPECT_TRUE(finds("(?d)b$", "ab\n"));
  EXPECT_EQ(re.find_group("(b$)", "ab\n", 1).value(), "b");
  EXPECT_EQ(re.find_group("(a(b\\Z))", "ab\n", 2).value(), "b");
  EXPECT_EQ(re.find_group("(a)(b$)", "ab\n", 1).value(), "a");
  EXPECT_FALSE(matches("ab$", "ab\n"));  // Matcher.matches needs the whole input
  EXPECT_TRUE(matches("ab$", "ab"));
  EXPECT_TRUE(matches("ab\n?$", "ab\n"));
  EXPECT_TRUE(finds("(?m)^b$", "a\nb\nc"));
  const std::vector<std::string_view> parts = re.split("$", "a\nb\n", -1);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], "a\nb");
  EXPECT_EQ(parts[1], "\n");
  EXPECT_EQ(parts[2], "");
}

TEST(JavaRegexSyntax, DotStopsAtJavasLineTerminators) {
  EXPECT_FALSE(matches("a.b", "a\rb"));
  EXPECT_FALSE(matches("a.b", "a\u2028b"));
  EXPECT_TRUE(matches("a.b", "a\tb"));
  EXPECT_TRUE(matches("(?s)a.b", "a\rb"));
  EXPECT_TRUE(matches("(?d)a.b", "a\rb"));
  EXPECT_FALSE(matches("(?d)a.b", "a\nb"));
  EXPECT_TRUE(matches("(?s:a.)b", "a\nb"));
  EXPECT_FALSE(matches("(?s:a)\\.b", "a\nb"));
}

TEST(JavaRegexSyntax, EmbeddedFlags) {
  EXPECT_TRUE(matches("(?i)abc", "ABC"));
  EXPECT_TRUE(matches("a(?i:b)c", "aBc"));
  EXPECT_FALSE(matches("a(?i:b)c", "aBC"));
  EXPECT_TRUE(matches("(?x) a b  # a comment\n c", "abc"));
  EXPECT_TRUE(matches("(?x)[a b]+", "ab"));
  EXPECT_FALSE(matches("(?x)[a b]", " "));
  EXPECT_TRUE(matches("(?x)a\\ b", "a b"));
  EXPECT_TRUE(matches("(?x:a b)c d", "abc d"));
  // Java's U is UNICODE_CHARACTER_CLASS, not RE2's non-greedy flag.
  JavaRegex re("regexp_extract");
  EXPECT_EQ(re.find_group("(?U)(a+)", "aaa", 1).value(), "aaa");
  EXPECT_TRUE(finds("(?m)^b", "a\nb"));
}

TEST(JavaRegexSyntax, CaseInsensitiveIsAsciiUnlessUnicodeCase) {
  EXPECT_TRUE(matches("(?i)abc", "AbC"));
  EXPECT_FALSE(matches("(?i)é", "É"));  // Java folds only ASCII without UNICODE_CASE
  EXPECT_TRUE(matches("(?iu)é", "É"));
  EXPECT_TRUE(matches("(?i)[a-c]+", "aBC"));
  EXPECT_FALSE(matches("(?i)[à-å]", "À"));
  EXPECT_TRUE(matches("(?iu)[à-å]", "À"));
  EXPECT_FALSE(matches("(?i)[^a]", "A"));
  EXPECT_TRUE(matches("(?i)\\Qab\\E", "AB"));
  EXPECT_TRUE(matches("(?i)\\x41", "a"));
  EXPECT_TRUE(matches("a(?i)b", "aB"));
  EXPECT_FALSE(matches("(?i:a)b", "aB"));
  EXPECT_TRUE(matches("(?i)(a)(?-i)b", "Ab"));
  EXPECT_FALSE(matches("(?i)(a)(?-i)b", "AB"));
}

TEST(JavaRegexSyntax, UnicodeCharacterClasses) {
  EXPECT_FALSE(matches("\\w", "é"));
  EXPECT_TRUE(matches("(?U)\\w+", "é日_1"));
  EXPECT_FALSE(matches("\\d", "\u0663"));  // ARABIC-INDIC DIGIT THREE
  EXPECT_TRUE(matches("(?U)\\d", "\u0663"));
  EXPECT_TRUE(matches("(?U)\\s", "\u00A0"));
  EXPECT_FALSE(matches("\\p{Lower}", "é"));
  EXPECT_TRUE(matches("(?U)\\p{Lower}", "é"));
  EXPECT_TRUE(matches("(?U)[\\W]", "-"));
}

TEST(JavaRegexSyntax, EscapesAndNamedGroups) {
  EXPECT_TRUE(matches("\\uD83D\\uDE00", "\U0001F600"));
  EXPECT_TRUE(matches("\\cA", "\x01"));
  EXPECT_TRUE(matches("\\x{1F600}", "\U0001F600"));
  EXPECT_TRUE(matches("[\\u0370-\\u03FF]+", "αβ"));
  EXPECT_TRUE(matches("\\Qa.b\\E", "a.b"));
  EXPECT_FALSE(matches("\\Qa.b\\E", "axb"));
  JavaRegex re("regexp_extract");
  EXPECT_EQ(re.find_group("(?<first>a)(b)", "ab", 2).value(), "b");
  EXPECT_TRUE(matches("a{2}b{1,}", "aab"));
  EXPECT_TRUE(matches("a}", "a}"));
  // Java has no POSIX bracket expressions: [[:alpha:]] is the characters : a l p h.
  EXPECT_FALSE(matches("[[:alpha:]]", "b"));
  EXPECT_TRUE(matches("[[:alpha:]]+", "alpha:"));
}

TEST(JavaRegexSyntax, WhatRe2CannotDoIsAnError) {
  for (const char* p : {"(a)\\1", "(?<n>a)\\k<n>", "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b",
                        "(?>a)", "a++", "a*+", "a?+", "a{2}+", "\\Ga"}) {
    const std::string e = error_of(p);
    EXPECT_NE(e.find("INVALID_PARAMETER_VALUE.PATTERN"), std::string::npos) << p << ": " << e;
    EXPECT_NE(e.find("not supported"), std::string::npos) << p << ": " << e;
  }
  EXPECT_NE(error_of("[a").find("Unclosed character class"), std::string::npos);
  for (const char* p : {"{", "a{", "a{}", "a{,2}", "{abc}"})
    EXPECT_NE(error_of(p).find("Illegal repetition"), std::string::npos) << p;
  EXPECT_NE(error_of("a{1").find("Unclosed counted closure"), std::string::npos);
  // Lazy quantifiers are fine.
  EXPECT_EQ(error_of("a+?b*?"), "");
}

}  // namespace
}  // namespace ember::functions
