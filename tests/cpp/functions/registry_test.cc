// The registry as the catalog sees it: special forms are listed and described but never found as
// callable functions, unlisted functions are found but not listed, and DESCRIBE FUNCTION's rows
// follow Spark's layout.

#include <gtest/gtest.h>

#include <algorithm>

#include "functions/function.h"

namespace ember::functions {
namespace {

bool listed(const std::string& name) {
  auto names = Registry::instance().names();
  return std::binary_search(names.begin(), names.end(), name);
}

TEST(FunctionRegistry, SpecialFormsAreListedButNotCallable) {
  const Registry& r = Registry::instance();
  for (const char* name : {"coalesce", "if", "when", "row_number", "explode", "int", "||"}) {
    EXPECT_TRUE(listed(name)) << name;
    EXPECT_EQ(r.find(name), nullptr) << name;
    ASSERT_NE(r.find_listed(name), nullptr) << name;
    EXPECT_TRUE(r.find_listed(name)->special_form);
  }
  for (const FunctionDef* d : r.all()) EXPECT_FALSE(d->special_form) << d->name;
}

TEST(FunctionRegistry, UnlistedFunctionsAreCallable) {
  for (const char* name : {"product", "[]", "timestampadd"}) {
    EXPECT_FALSE(listed(name)) << name;
    EXPECT_NE(Registry::instance().find(name), nullptr) << name;
  }
  EXPECT_TRUE(listed("abs"));
}

TEST(FunctionRegistry, EveryListedNameHasOneDefinitionAndAFamily) {
  const Registry& r = Registry::instance();
  auto names = r.names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const auto& n : names) {
    const FunctionDef* d = r.find_listed(n);
    ASSERT_NE(d, nullptr) << n;
    EXPECT_TRUE(!d->family.empty() || d->special_form) << n;
  }
}

TEST(FunctionRegistry, DescribeFollowsSparksLayout) {
  const Registry& r = Registry::instance();
  auto rows = describe_function(*r.find("abs"), "ABS", false);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], "Function: abs");
  EXPECT_EQ(rows[1], "Class: ember.functions.math");
  EXPECT_EQ(rows[2].rfind("Usage: abs(expr) - ", 0), 0u);
  rows = describe_function(*r.find("abs"), "abs", true);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[3],
            "Extended Usage:\n    Examples:\n      > SELECT abs(-1);\n       1\n"
            "      > SELECT abs(-2.5D);\n       2.5\n  \n    Since: 1.2.0\n");
  // An alias is described under its own name; a function without examples says so.
  rows = describe_function(*r.find("std"), "std", true);
  EXPECT_EQ(rows[0], "Function: std");
  EXPECT_EQ(rows[1], "Class: ember.functions.aggregate.aggregates_stats");
  EXPECT_EQ(rows[3], "Extended Usage:\n    No example/argument for std.\n");
  rows = describe_function(*r.find_listed("coalesce"), "coalesce", false);
  EXPECT_EQ(rows[1], "Class: ember.plan.analyzer");
  // Pure syntax has no class line.
  rows = describe_function(*r.find_listed("case"), "case", false);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].rfind("Usage: CASE expr1 WHEN", 0), 0u);
}

}  // namespace
}  // namespace ember::functions
