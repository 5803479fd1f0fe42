#include "gpu/rand_jump.h"

#include <cstddef>

#include "functions/rand.h"

namespace ember::gpu {

std::vector<uint64_t> xorshift_jump_tables(uint64_t stride_steps) {
  static_assert(kJumpPowers <= functions::xorshift::kJumpPowers);
  const uint64_t* powers = functions::xorshift::jump_powers();
  std::vector<uint64_t> t(powers, powers + static_cast<size_t>(kJumpPowers) * 64);
  t.resize(static_cast<size_t>(kJumpTables) * 64);
  // Stride: the product of the powers for the set bits of stride_steps.
  uint64_t* stride = &t[static_cast<size_t>(kJumpPowers) * 64];
  for (int b = 0; b < 64; ++b) stride[b] = xorshift_jump(t.data(), uint64_t{1} << b, stride_steps);
  return t;
}

uint64_t xorshift_jump(const uint64_t* tables, uint64_t state, uint64_t steps) {
  for (int j = 0; j < kJumpPowers && steps != 0; ++j, steps >>= 1)
    if (steps & 1) state = functions::xorshift::apply_matrix(tables + static_cast<size_t>(j) * 64, state);
  return state;
}

}  // namespace ember::gpu
