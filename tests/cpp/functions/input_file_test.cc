// input_file_name(), input_file_block_start() and input_file_block_length() read the file block
// the executor sets for the batch being evaluated.

#include <gtest/gtest.h>

#include "common/config.h"
#include "functions/function.h"
#include "functions/input_file.h"

namespace ember::functions {
namespace {

ColumnPtr call0(const std::string& name, int64_t rows) {
  const FunctionDef* d = Registry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  Config conf;
  Signature sig = d->type_rule({}, conf);
  EXPECT_TRUE(sig.never_null);
  EXPECT_FALSE(d->deterministic);
  EvalContext ctx;
  ctx.config = &conf;
  return d->kernel({}, rows, sig, ctx);
}

TEST(InputFileFunctions, EmptyAndMinusOneOutsideAFileScan) {
  EXPECT_EQ(current_input_file(), nullptr);
  ColumnPtr name = call0("input_file_name", 2);
  ASSERT_EQ(name->length(), 2);
  EXPECT_EQ(name->string_at(1), "");
  EXPECT_EQ(call0("input_file_block_start", 2)->value_at(0).as_int(), -1);
  EXPECT_EQ(call0("input_file_block_length", 2)->value_at(1).as_int(), -1);
}

TEST(InputFileFunctions, TheScopesBlockAndItsRestoration) {
  const InputFileBlock outer{"file:///a.csv", 0, 10};
  const InputFileBlock inner{"file:///b%20c.csv", 128, 64};
  InputFileScope a(&outer);
  {
    InputFileScope b(&inner);
    EXPECT_EQ(call0("input_file_name", 3)->string_at(2), "file:///b%20c.csv");
    EXPECT_EQ(call0("input_file_block_start", 1)->value_at(0).as_int(), 128);
    EXPECT_EQ(call0("input_file_block_length", 1)->value_at(0).as_int(), 64);
  }
  EXPECT_EQ(call0("input_file_name", 1)->string_at(0), "file:///a.csv");
  EXPECT_EQ(call0("input_file_block_length", 1)->value_at(0).as_int(), 10);
}

}  // namespace
}  // namespace ember::functions
