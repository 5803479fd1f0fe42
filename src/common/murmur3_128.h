#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

/// The two 64-bit halves of a MurmurHash3 x64 128-bit hash.
struct Hash128 {
  uint64_t h1 = 0;
  uint64_t h2 = 0;
};

/// MurmurHash3 x64 128-bit of `len` bytes with both halves of the state starting at `seed`.
/// Sketch libraries hash arrays of 32- and 64-bit integers as their little-endian bytes, so one
/// byte-oriented function serves every input shape.
Hash128 murmur3_x64_128(const void* data, size_t len, uint64_t seed);

}  // namespace ember
