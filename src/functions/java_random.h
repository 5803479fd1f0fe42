#pragma once

// java.util.Random: the 48-bit linear congruential generator Spark's JVM code draws from where
// a result depends on it (histogram_numeric's tie breaking, count_min_sketch's hash factors).

#include <cstdint>

namespace ember::functions {

/// java.util.Random's nextInt(bound), bound > 0, over a source of 31-bit draws (`next31()`),
/// as commons-math3's generators share it: a power of two takes the high bits of one draw;
/// otherwise draws that would bias the remainder are rejected.
template <typename Next31>
int32_t java_bounded_int(int32_t bound, Next31 next31) {
  int32_t r = next31();
  const int32_t m = bound - 1;
  if ((bound & m) == 0) return static_cast<int32_t>((static_cast<int64_t>(bound) * r) >> 31);
  // Java's int arithmetic wraps: a draw too close to 2^31 overflows the test and is redrawn.
  for (int32_t u = r;; u = next31()) {
    r = u % bound;
    if (static_cast<int32_t>(static_cast<uint32_t>(u) - static_cast<uint32_t>(r) + static_cast<uint32_t>(m)) >= 0)
      return r;
  }
}

class JavaRandom {
 public:
  explicit JavaRandom(int64_t seed) : seed_((static_cast<uint64_t>(seed) ^ kMultiplier) & kMask) {}

  double next_double() {
    auto hi = static_cast<int64_t>(next(26)), lo = static_cast<int64_t>(next(27));
    return static_cast<double>((hi << 27) + lo) * 0x1.0p-53;
  }

  /// A uniform value in [0, bound), bound > 0.
  int32_t next_int(int32_t bound) {
    return java_bounded_int(bound, [this] { return next(31); });
  }

 private:
  static constexpr uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr uint64_t kMask = (1ULL << 48) - 1;
  int32_t next(int bits) {
    seed_ = (seed_ * kMultiplier + 0xBULL) & kMask;
    return static_cast<int32_t>(static_cast<int64_t>(seed_ >> (48 - bits)));
  }
  uint64_t seed_;
};

}  // namespace ember::functions
