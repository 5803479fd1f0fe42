// String and date/time kernels called through the registry, for the cases where the logic is
// easy to get subtly wrong: LIKE escapes, Java split/replace semantics, UTF-8 positions,
// datetime formatting across a DST change.

#include <gtest/gtest.h>

#include "common/config.h"
#include "common/datetime.h"
#include "common/error.h"
#include "functions/function.h"
#include "functions/kernel_util.h"
#include "functions/string_util.h"

namespace ember::functions {
namespace {

ColumnPtr strings(const std::vector<const char*>& values) {
  ColumnBuilder b(DataType::string());
  for (const char* v : values) {
    if (v)
      b.append_bytes(v);
    else
      b.append_null();
  }
  return b.finish();
}

ColumnPtr ints(const std::vector<int32_t>& values) {
  ColumnBuilder b(DataType::int_());
  for (int32_t v : values) b.append<int32_t>(v);
  return b.finish();
}

ColumnPtr call(const std::string& name, const std::vector<ColumnPtr>& args,
               const std::string& zone = "UTC") {
  const FunctionDef* d = Registry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  std::vector<TypePtr> types;
  for (auto& a : args) types.push_back(a->type());
  Config conf;
  Signature sig = d->type_rule(types, conf);
  EvalContext ctx;
  ctx.time_zone = zone;
  ctx.config = &conf;
  return d->kernel(args, args.empty() ? 1 : args[0]->length(), sig, ctx);
}

/// Builds without RE2 raise UNSUPPORTED_FEATURE for the regular expression functions.
bool regexp_available() {
  try {
    call("rlike", {strings({"a"}), strings({"a"})});
    return true;
  } catch (const SparkError& e) {
    if (e.error_class() == "UNSUPPORTED_FEATURE") return false;
    throw;
  }
}

TEST(StringKernels, LikeWithEscapesAndMultiByteCharacters) {
  ColumnPtr s = strings({"a_b", "axb", "日本語", "100%", nullptr});
  ColumnPtr r = call("like", {s, strings({"a\\_b", "a\\_b", "_本%", "100\\%", "x"})});
  EXPECT_TRUE(r->bool_at(0));
  EXPECT_FALSE(r->bool_at(1));
  EXPECT_TRUE(r->bool_at(2));
  EXPECT_TRUE(r->bool_at(3));
  EXPECT_TRUE(r->is_null(4));
  EXPECT_THROW(call("like", {strings({"a"}), strings({"a\\"})}), SparkError);
}

TEST(StringKernels, LikeRunsBetweenPercentSigns) {
  // Patterns without `_` match their literal runs on bytes; each case against decoding.
  std::vector<std::pair<const char*, const char*>> yes = {
      {"abc", "abc"}, {"abc", "a%"}, {"abc", "%c"}, {"abc", "%b%"}, {"abc", "%"}, {"", "%"}, {"", ""},
      {"Customer x Complaints", "%Customer%Complaints%"}, {"aXbXc", "a%b%c"}, {"日本語", "日%語"}, {"aa", "a%a"},
      {"50% off", "50\\% off"}};
  std::vector<std::pair<const char*, const char*>> no = {
      {"abc", "ab"}, {"abc", "%d%"}, {"a", "a%a"}, {"Complaints Customer", "%Customer%Complaints%"},
      {"acb", "a%b%c"}, {"日本", "日%語"}, {"", "a%"}, {"aXc", "a%b%c"}};
  for (auto& [text, pattern] : yes)
    EXPECT_TRUE(call("like", {strings({text}), strings({pattern})})->bool_at(0)) << text << " LIKE " << pattern;
  for (auto& [text, pattern] : no)
    EXPECT_FALSE(call("like", {strings({text}), strings({pattern})})->bool_at(0)) << text << " LIKE " << pattern;
}

TEST(StringKernels, SubstringCountsCodePoints) {
  ColumnPtr r =
      call("substring", {strings({"héllo", "日本語", "abc"}), ints({2, -2, 0}), ints({3, 5, 2})});
  EXPECT_EQ(r->string_at(0), "éll");
  EXPECT_EQ(r->string_at(1), "本語");
  EXPECT_EQ(r->string_at(2), "ab");  // position 0 acts as 1 but keeps the length from 0
}

TEST(StringKernels, SplitFollowsJavaSemantics) {
  if (!regexp_available()) GTEST_SKIP() << "built without RE2";
  ColumnPtr r = call("split", {strings({"a,b,,c,,", ",a"}), strings({",", ","}), ints({-1, -1})});
  const Column& items = *r->child(0);
  const int32_t* off = r->offsets();
  ASSERT_EQ(off[1] - off[0], 6);  // trailing empty strings are kept with a negative limit
  EXPECT_EQ(items.string_at(off[0] + 2), "");
  ASSERT_EQ(off[2] - off[1], 2);  // a leading empty string stays when the match is not empty
  EXPECT_EQ(items.string_at(off[1]), "");
}

TEST(StringKernels, RegexpReplaceExpandsGroupReferences) {
  if (!regexp_available()) GTEST_SKIP() << "built without RE2";
  ColumnPtr r = call("regexp_replace", {strings({"a1b22", "aaa"}), strings({"(\\d+)", "a*"}),
                                        strings({"<$1\\$>", "X"}), ints({1, 1})});
  EXPECT_EQ(r->string_at(0), "a<1$>b<22$>");
  EXPECT_EQ(r->string_at(1), "XX");  // a match of "aaa" and the empty match at the end
}

TEST(DateTimeKernels, DateFormatAcrossDaylightSavingTime) {
  ColumnBuilder b(DataType::timestamp());
  b.append<int64_t>(1710064800LL * kMicrosPerSecond);  // 2024-03-10 10:00:00 UTC = 03:00 PDT
  b.append<int64_t>(1710061200LL * kMicrosPerSecond);  // one hour earlier = 01:00 PST
  ColumnPtr r = call("date_format", {b.finish(), strings({"yyyy-MM-dd HH:mm XXX", "hh a EEE"})},
                     "America/Los_Angeles");
  EXPECT_EQ(r->string_at(0), "2024-03-10 03:00 -07:00");
  EXPECT_EQ(r->string_at(1), "01 AM Sun");
}

TEST(DateTimeKernels, AddMonthsClampsToTheEndOfTheMonth) {
  ColumnBuilder b(DataType::date());
  b.append<int32_t>(static_cast<int32_t>(days_from_civil(2024, 1, 31)));
  b.append<int32_t>(static_cast<int32_t>(days_from_civil(2024, 2, 29)));
  ColumnPtr r = call("add_months", {b.finish(), ints({1, 12})});
  EXPECT_EQ(r->values<int32_t>()[0], days_from_civil(2024, 2, 29));
  EXPECT_EQ(r->values<int32_t>()[1], days_from_civil(2025, 2, 28));
}

}  // namespace
}  // namespace ember::functions

namespace ember::functions {
namespace {

// Equality of byte strings at every length around the word-load boundaries: a difference at
// any single position, or in length alone, is seen.
TEST(SameBytesTest, EveryLengthAndDifferingPosition) {
  for (size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + (i * 7) % 26);
    EXPECT_TRUE(same_bytes(a, std::string(a))) << n;
    for (size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ 0x20);
      EXPECT_FALSE(same_bytes(a, b)) << n << " at " << i;
    }
    EXPECT_FALSE(same_bytes(a, a + "y")) << n;
  }
}

TEST(StringKernels, Base64DecodesAsJavasMimeDecoder) {
  std::string out;
  EXPECT_EQ(java_mime_unbase64("YW Jj\nZA", &out), "");
  EXPECT_EQ(out, "abcd");
  EXPECT_EQ(java_mime_unbase64("YQ===-", &out), "");  // bytes outside the alphabet may follow
  EXPECT_EQ(out, "a");
  EXPECT_EQ(java_mime_unbase64("\xC3\x9F", &out), "");
  EXPECT_EQ(out, "");
  EXPECT_EQ(java_mime_unbase64("abcde", &out), "Last unit does not have enough valid bits");
  EXPECT_EQ(java_mime_unbase64("Y=", &out), "Last unit does not have enough valid bits");
  EXPECT_EQ(java_mime_unbase64("YQ= =", &out), "Input byte array has wrong 4-byte ending unit");
  EXPECT_EQ(java_mime_unbase64("=", &out), "Input byte array has wrong 4-byte ending unit");
  EXPECT_EQ(java_mime_unbase64("ab==cd", &out), "Input byte array has incorrect ending byte at 5");
}

}  // namespace
}  // namespace ember::functions
