#pragma once

// Spark's `rand(seed)` generator, shared by the CPU kernel (rand.cc) and the GPU expression
// interpreter (gpu/), so that both produce the same stream bit for bit.
//
// Spark evaluates `rand(seed)` with one `XORShiftRandom(seed + partitionIndex)` per partition and
// draws `nextDouble()` once per row, in row order. The generator's 64-bit state starts as a
// MurmurHash3 (Scala's `bytesHash`) of the seed's 8 big-endian bytes; each `next(bits)` is one
// xorshift step (<< 21, >>> 35, << 4) returning the low `bits` bits; `nextDouble()` is
// `((next(26) << 27) + next(27)) * 2^-53`, as in java.util.Random.
//
// The partition index is Spark's (Batch::partition, set by the sources as exec/README.md
// describes), so values equal Spark's wherever Spark's partitioning is deterministic.

#include <cstdint>

#include "common/host_device.h"

namespace ember::functions {

namespace xorshift {

EMBER_HOST_DEVICE inline uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

EMBER_HOST_DEVICE inline uint32_t murmur_mix_k(uint32_t k) {
  k *= 0xcc9e2d51u;
  k = rotl32(k, 15);
  return k * 0x1b873593u;
}

/// Scala's `MurmurHash3.bytesHash` of the 8 big-endian bytes of `v`.
EMBER_HOST_DEVICE inline uint32_t bytes_hash_of_long(int64_t v, uint32_t seed) {
  uint64_t u = static_cast<uint64_t>(v);
  uint32_t h = seed;
  for (int word = 0; word < 2; ++word) {
    // Bytes 4*word .. 4*word+3 of the big-endian encoding, read little-endian.
    uint32_t k = 0;
    for (int b = 0; b < 4; ++b) {
      uint32_t byte = static_cast<uint32_t>(u >> (56 - 8 * (4 * word + b))) & 0xffu;
      k |= byte << (8 * b);
    }
    h ^= murmur_mix_k(k);
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  h ^= 8u;  // length
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/// XORShiftRandom.hashSeed: the initial state for a seed.
EMBER_HOST_DEVICE inline uint64_t initial_state(int64_t seed) {
  constexpr uint32_t kArraySeed = 0x3c074a61u;
  uint32_t low = bytes_hash_of_long(seed, kArraySeed);
  uint32_t high = bytes_hash_of_long(seed, low);
  return (static_cast<uint64_t>(high) << 32) | low;
}

/// One xorshift step.
EMBER_HOST_DEVICE inline uint64_t step(uint64_t s) {
  s ^= s << 21;
  s ^= s >> 35;
  s ^= s << 4;
  return s;
}

/// `nextDouble()`: two steps.
EMBER_HOST_DEVICE inline double next_double(uint64_t& s) {
  s = step(s);
  uint64_t a = s & ((uint64_t{1} << 26) - 1);
  s = step(s);
  uint64_t b = s & ((uint64_t{1} << 27) - 1);
  return static_cast<double>((a << 27) + b) * 0x1.0p-53;
}

/// Jump-ahead. One step is linear over GF(2), so k steps are a 64x64 bit matrix M^k; a state
/// is moved k steps by applying the powers M^(2^j) for the set bits of k (at most 64 matrix
/// applications instead of k steps). A matrix is 64 columns: column b is the state reached
/// from the state with only bit b set.
constexpr int kJumpPowers = 64;

/// M^(2^j) for j in [0, kJumpPowers), 64 columns each; computed once (host only).
const uint64_t* jump_powers();

/// A matrix (64 columns) applied to a state.
EMBER_HOST_DEVICE inline uint64_t apply_matrix(const uint64_t* m, uint64_t v) {
  uint64_t r = 0;
  for (int b = 0; b < 64; ++b)
    if ((v >> b) & 1) r ^= m[b];
  return r;
}

/// The state `steps` steps after `state` (host only).
uint64_t jump(uint64_t state, uint64_t steps);

}  // namespace xorshift

/// Where the rows of the batch being evaluated sit: the Spark partition they belong to and
/// the position of the batch's first row within it, counted at the evaluating operator. Nondeterministic functions that number
/// rows per partition (rand) read it; the executor sets it per batch on the evaluating thread.
struct PartitionContext {
  int64_t partition = 0;
  int64_t row_offset = 0;
  /// The batch's `Batch::index`: batches of one pipeline in the order its source produced
  /// them, which aggregates that keep a row by its position (first, last) compare.
  int64_t batch = 0;
};

/// The calling thread's partition context (partition 0, offset 0 when none was set).
PartitionContext current_partition();

/// Sets the calling thread's partition context for its lifetime, restoring the previous one.
class PartitionScope {
 public:
  explicit PartitionScope(PartitionContext context);
  ~PartitionScope();
  PartitionScope(const PartitionScope&) = delete;
  PartitionScope& operator=(const PartitionScope&) = delete;

 private:
  PartitionContext saved_;
};

}  // namespace ember::functions
