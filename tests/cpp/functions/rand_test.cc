// Spark's xorshift stream: jumping ahead equals stepping, and the random functions give the same
// values for a partition's rows whether they are evaluated in one batch or split into several
// (each batch resumes the stream at its first row's position in the partition).

#include <gtest/gtest.h>

#include "common/config.h"
#include "functions/function.h"
#include "functions/mersenne_twister.h"
#include "functions/rand.h"

namespace ember::functions {
namespace {

TEST(XorshiftJump, EqualsStepping) {
  uint64_t start = xorshift::initial_state(42);
  uint64_t stepped = start;
  for (uint64_t k = 0; k <= 5000; ++k) {
    if (k % 97 == 0 || k < 70) EXPECT_EQ(xorshift::jump(start, k), stepped) << k;
    stepped = xorshift::step(stepped);
  }
  // A long jump composes: 2^40 + 3 steps = 3 steps after 2^40.
  uint64_t far = xorshift::jump(start, uint64_t{1} << 40);
  EXPECT_EQ(xorshift::jump(start, (uint64_t{1} << 40) + 3),
            xorshift::step(xorshift::step(xorshift::step(far))));
}

/// `name(seed)` over rows [offset, offset + n) of partition `partition`.
std::vector<double> draw(const std::string& name, int64_t partition, int64_t offset, int64_t n) {
  const FunctionDef* d = Registry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  ColumnBuilder seed(DataType::long_());
  seed.append<int64_t>(7);
  std::vector<ColumnPtr> args = {seed.finish()};
  Config conf;
  Signature sig = d->type_rule({DataType::long_()}, conf);
  EvalContext ctx;
  ctx.config = &conf;
  PartitionScope where({partition, offset});
  ColumnPtr c = d->kernel(args, n, sig, ctx);
  return std::vector<double>(c->values<double>(), c->values<double>() + n);
}

TEST(RandKernels, BatchesOfAPartitionContinueItsStream) {
  for (const char* name : {"rand", "randn"}) {
    SCOPED_TRACE(name);
    std::vector<double> whole = draw(name, 3, 0, 10000);
    // In order, as a scan hands a partition's batches to one thread.
    std::vector<double> parts;
    for (int64_t at = 0; at < 10000; at += 2500) {
      auto p = draw(name, 3, at, 2500);
      parts.insert(parts.end(), p.begin(), p.end());
    }
    EXPECT_EQ(parts, whole);
    // Out of order and unaligned, as batches spread over threads can arrive.
    auto late = draw(name, 3, 7001, 999);
    auto early = draw(name, 3, 1234, 10);
    EXPECT_EQ(late, std::vector<double>(whole.begin() + 7001, whole.begin() + 8000));
    EXPECT_EQ(early, std::vector<double>(whole.begin() + 1234, whole.begin() + 1244));
    // Another partition is another stream.
    EXPECT_NE(draw(name, 4, 0, 10), std::vector<double>(whole.begin(), whole.begin() + 10));
  }
}

// commons-math3's MersenneTwister as Spark seeds it: values recorded from Spark's uuid(7) stream
// (its first UUID is cee40aac-b68a-440d-b75a-41718652cb36) and its shuffles.
TEST(MersenneTwister, SeededLikeSpark) {
  MersenneTwister g(7);
  EXPECT_EQ(g.next_long(), -3538691670293216243LL);
  EXPECT_EQ(g.next_long(), 3988572375830678326LL);
  EXPECT_EQ(g.next_long(), 5836109687072793578LL);
  MersenneTwister h(-3);
  std::vector<int32_t> got;
  for (int32_t bound : {1, 2, 3, 7, 100, 1 << 30, 2147483647}) got.push_back(h.next_int(bound));
  EXPECT_EQ(got, (std::vector<int32_t>{0, 0, 2, 5, 26, 849618426, 1572105335}));
}

/// uuid(7) over rows [offset, offset + n) of `partition`.
std::vector<std::string> uuids(int64_t partition, int64_t offset, int64_t n) {
  const FunctionDef* d = Registry::instance().find("uuid");
  EXPECT_NE(d, nullptr);
  ColumnBuilder seed(DataType::long_());
  seed.append<int64_t>(7);
  std::vector<ColumnPtr> args = {seed.finish()};
  Config conf;
  ArgInfo info{DataType::long_(), false, nullptr, ""};
  Value seven = Value::integer(7);
  info.literal = &seven;
  Signature sig = d->arg_type_rule({info}, conf);
  EvalContext ctx;
  ctx.config = &conf;
  PartitionScope where({partition, offset});
  ColumnPtr c = d->kernel(args, n, sig, ctx);
  std::vector<std::string> out;
  for (int64_t i = 0; i < n; ++i) out.emplace_back(c->string_at(i));
  return out;
}

TEST(UuidKernel, BatchesOfAPartitionContinueItsStream) {
  std::vector<std::string> whole = uuids(0, 0, 3000);
  EXPECT_EQ(whole[0], "cee40aac-b68a-440d-b75a-41718652cb36");
  EXPECT_EQ(whole[1], "50fe06d6-e030-43ea-9ff6-ff3a773b207a");
  std::vector<std::string> parts;
  for (int64_t at = 0; at < 3000; at += 1000) {
    auto p = uuids(0, at, 1000);
    parts.insert(parts.end(), p.begin(), p.end());
  }
  EXPECT_EQ(parts, whole);
  EXPECT_EQ(uuids(0, 2500, 7), std::vector<std::string>(whole.begin() + 2500, whole.begin() + 2507));
  EXPECT_EQ(uuids(0, 17, 3), std::vector<std::string>(whole.begin() + 17, whole.begin() + 20));
  // Partition 1 of seed 7 is the stream of seed 8.
  EXPECT_EQ(uuids(1, 0, 1)[0], "6c186627-616a-45dd-85c2-ac0fd2cf712d");
}

}  // namespace
}  // namespace ember::functions
