#include "gpu/rand_jump.h"

#include <cstddef>

#include "functions/rand.h"

namespace ember::gpu {
namespace {

uint64_t apply(const uint64_t* m, uint64_t v) {
  uint64_t r = 0;
  for (int b = 0; b < 64; ++b)
    if ((v >> b) & 1) r ^= m[b];
  return r;
}

void multiply(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  // (A·B) column j = A applied to B's column j.
  for (int j = 0; j < 64; ++j) out[j] = apply(a, b[j]);
}

}  // namespace

std::vector<uint64_t> xorshift_jump_tables(uint64_t stride_steps) {
  std::vector<uint64_t> t(static_cast<size_t>(kJumpTables) * 64);
  for (int b = 0; b < 64; ++b)
    t[static_cast<size_t>(b)] = functions::xorshift::step(uint64_t{1} << b);
  for (int j = 1; j < kJumpPowers; ++j)
    multiply(&t[static_cast<size_t>(j - 1) * 64], &t[static_cast<size_t>(j - 1) * 64],
             &t[static_cast<size_t>(j) * 64]);
  // Stride: the product of the powers for the set bits of stride_steps.
  uint64_t* stride = &t[static_cast<size_t>(kJumpPowers) * 64];
  for (int b = 0; b < 64; ++b) stride[b] = xorshift_jump(t.data(), uint64_t{1} << b, stride_steps);
  return t;
}

uint64_t xorshift_jump(const uint64_t* tables, uint64_t state, uint64_t steps) {
  for (int j = 0; j < kJumpPowers && steps != 0; ++j, steps >>= 1)
    if (steps & 1) state = apply(tables + static_cast<size_t>(j) * 64, state);
  return state;
}

}  // namespace ember::gpu
