#pragma once

// Jump-ahead for Spark's xorshift generator (functions/rand.h). One xorshift step is linear over
// GF(2), so k steps are a 64x64 bit matrix; the GPU starts each thread's stream at its row by
// applying the precomputed powers M^(2^j) for the set bits of 2 * row instead of stepping.

#include <cstdint>
#include <vector>

namespace ember::gpu {

/// Tables M^(2^j) for j in [0, kJumpPowers), each as 64 columns (column b: the state reached
/// from the state with only bit b set).
constexpr int kJumpPowers = 48;
/// One more table after the powers: M^kStrideSteps, the advance between a thread's consecutive
/// runs of rows in the fused kernel (set by the kernel's launch shape, see fused_aggregate.h).
constexpr int kJumpTables = kJumpPowers + 1;

/// The tables above, for a stride of `stride_steps` steps.
std::vector<uint64_t> xorshift_jump_tables(uint64_t stride_steps);

/// State after `steps` steps from `state`, using the tables (host version of the kernel's).
uint64_t xorshift_jump(const uint64_t* tables, uint64_t state, uint64_t steps);

}  // namespace ember::gpu
