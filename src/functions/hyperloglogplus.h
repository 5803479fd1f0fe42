#pragma once

// HyperLogLog++ as approx_count_distinct computes it: 2^p six-bit registers addressed by the top
// p bits of a value's 64-bit XXH64 hash (seed 42), the raw HyperLogLog estimate corrected by the
// empirical bias data below 5m, and linear counting while it is below the precision's
// threshold. The register array is the whole state, so merging (a register-wise maximum) is
// order independent and any grouping of partial states gives the same estimate.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ember::functions::hllpp {

/// The precision for a relative standard deviation `rsd`: ceil(2 log2(1.106 / rsd)).
int precision_for(double rsd);

class HyperLogLogPlusPlus {
 public:
  /// `precision` is the number of address bits, 4 or more.
  explicit HyperLogLogPlusPlus(int precision);

  int precision() const { return p_; }
  size_t num_registers() const { return registers_.size(); }
  const std::vector<uint8_t>& registers() const { return registers_; }

  /// Adds one hashed value.
  void add_hash(uint64_t hash);
  /// Register-wise maximum with a sketch of the same precision.
  void merge(const HyperLogLogPlusPlus& other);
  /// The cardinality estimate, rounded to the nearest integer.
  int64_t estimate() const;

 private:
  double estimate_bias(double e) const;

  int p_;
  std::vector<uint8_t> registers_;
};

}  // namespace ember::functions::hllpp
