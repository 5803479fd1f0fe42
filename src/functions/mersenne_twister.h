#pragma once

// commons-math3's MersenneTwister: the MT19937 generator Spark's uuid and shuffle draw from
// (one generator per partition, seeded with seed + partition index).
//
// A long seed initializes the state through MT19937's init_by_array with the seed's two 32-bit
// halves, high half first. next(bits) is one tempered 32-bit output shifted right to `bits`
// bits; nextLong is next(32) << 32 | next(32); nextInt(n) is java.util.Random's bounded draw
// over next(31) (java_random.h).

#include <array>
#include <cstdint>

#include "functions/java_random.h"

namespace ember::functions {

class MersenneTwister {
 public:
  explicit MersenneTwister(int64_t seed) {
    const auto u = static_cast<uint64_t>(seed);
    const uint32_t key[2] = {static_cast<uint32_t>(u >> 32), static_cast<uint32_t>(u)};
    init(19650218u);
    int i = 1, j = 0;
    for (int k = kN; k != 0; --k) {
      const uint32_t prev = mt_[i - 1];
      mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
      if (++i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
      if (++j >= 2) j = 0;
    }
    for (int k = kN - 1; k != 0; --k) {
      const uint32_t prev = mt_[i - 1];
      mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
      if (++i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
    }
    mt_[0] = 0x80000000u;
  }

  /// The next `bits` (1..32) random bits, as Java's int.
  int32_t next(int bits) { return static_cast<int32_t>(next32() >> (32 - bits)); }

  int64_t next_long() {
    const uint64_t high = next32(), low = next32();
    return static_cast<int64_t>(high << 32 | low);
  }

  /// A uniform value in [0, bound), bound > 0.
  int32_t next_int(int32_t bound) {
    return java_bounded_int(bound, [this] { return next(31); });
  }

 private:
  static constexpr int kN = 624;
  static constexpr int kM = 397;

  void init(uint32_t seed) {
    mt_[0] = seed;
    for (mti_ = 1; mti_ < kN; ++mti_) {
      const uint32_t prev = mt_[mti_ - 1];
      mt_[mti_] = 1812433253u * (prev ^ (prev >> 30)) + static_cast<uint32_t>(mti_);
    }
  }

  uint32_t next32() {
    if (mti_ >= kN) {
      auto twist = [](uint32_t upper, uint32_t lower, uint32_t far) {
        const uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
        return far ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      };
      int k = 0;
      for (; k < kN - kM; ++k) mt_[k] = twist(mt_[k], mt_[k + 1], mt_[k + kM]);
      for (; k < kN - 1; ++k) mt_[k] = twist(mt_[k], mt_[k + 1], mt_[k + (kM - kN)]);
      mt_[kN - 1] = twist(mt_[kN - 1], mt_[0], mt_[kM - 1]);
      mti_ = 0;
    }
    uint32_t y = mt_[mti_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
  }

  std::array<uint32_t, kN> mt_{};
  int mti_ = kN;
};

}  // namespace ember::functions
