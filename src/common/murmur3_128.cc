#include "common/murmur3_128.h"

#include <cstring>

namespace ember {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL;
constexpr uint64_t kC2 = 0x4cf5ad432745937fULL;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t fmix(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

inline uint64_t load_le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

inline uint64_t mix_k1(uint64_t k1) { return rotl(k1 * kC1, 31) * kC2; }
inline uint64_t mix_k2(uint64_t k2) { return rotl(k2 * kC2, 33) * kC1; }

}  // namespace

Hash128 murmur3_x64_128(const void* data, size_t len, uint64_t seed) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  uint64_t h1 = seed, h2 = seed;
  const size_t blocks = len / 16;
  for (size_t i = 0; i < blocks; ++i) {
    const uint8_t* b = bytes + i * 16;
    h1 ^= mix_k1(load_le64(b));
    h1 = rotl(h1, 27) + h2;
    h1 = h1 * 5 + 0x52dce729;
    h2 ^= mix_k2(load_le64(b + 8));
    h2 = rotl(h2, 31) + h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  // The tail: up to 15 bytes, the first eight into k1 and the rest into k2, little-endian.
  const uint8_t* tail = bytes + blocks * 16;
  const size_t rest = len & 15;
  uint64_t k1 = 0, k2 = 0;
  for (size_t i = rest; i > 8; --i) k2 = (k2 << 8) | tail[i - 1];
  for (size_t i = rest < 8 ? rest : 8; i > 0; --i) k1 = (k1 << 8) | tail[i - 1];
  if (rest > 8) h2 ^= mix_k2(k2);
  if (rest > 0) h1 ^= mix_k1(k1);

  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

}  // namespace ember
