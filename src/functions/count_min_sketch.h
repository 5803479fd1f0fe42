#pragma once

// Spark's CountMinSketch as count_min_sketch builds it: `depth` rows of `width` counters,
// width = ceil(2 / eps) and depth = ceil(-log2(1 - confidence)). Row i of an integral item x is
// ((a_i * x) mod 2^31 - 1) mod width, with a_i drawn by java.util.Random(seed).nextInt(2^31 - 1);
// a string or binary item picks row i's column from two Murmur3 x86-32 hashes h1, h2 of its
// bytes as |(h1 + i h2) mod width|. Merging adds the counters, so any split of the input gives
// the same sketch. The serialized form is Spark's version 1: big-endian int version, long total
// count, int depth, int width, the depth hash factors as longs, then the counters row by row.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions::cms {

class CountMinSketch {
 public:
  CountMinSketch(int32_t depth, int32_t width, int32_t seed);

  static int32_t width_for(double eps);
  static int32_t depth_for(double confidence);

  void add_long(int64_t item);
  void add_bytes(std::string_view item);
  /// Adds the counters of a sketch built with the same depth, width and seed.
  void merge(const CountMinSketch& other);
  /// The smallest counter over the item's columns: an upper bound of its count.
  int64_t estimate_long(int64_t item) const;

  int64_t total_count() const { return total_; }
  std::string serialize() const;

 private:
  /// Index in table_ of row `row`'s counter for an integral item.
  size_t long_cell(int32_t row, int64_t item) const;

  int32_t depth_;
  int32_t width_;
  int64_t total_ = 0;
  std::vector<int64_t> hash_a_;
  std::vector<int64_t> table_;  // depth_ rows of width_ counters
};

}  // namespace ember::functions::cms
