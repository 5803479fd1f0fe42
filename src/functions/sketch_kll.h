#pragma once

// KLL quantile sketches in the serialized form of Apache DataSketches, as Spark's kll_sketch_*
// functions store them in BINARY values, read for their count, quantiles and ranks.
//
// Layout (little-endian): byte 0 the preamble size in ints, 1 the serial version, 2 the family
// (15), 3 flags (1 empty, 2 level zero sorted, 4 single item), 4-5 k, 6 m (8). An empty sketch
// ends there; a sketch of one item (serial version 2) follows with that item. Otherwise (five
// preamble ints, serial version 1): 8-15 n, 16-17 the dynamic minimum k, 18 the number of
// levels L, then L int offsets where each level starts (the end of the top level is implied by
// the size), the minimum and maximum items, and the retained items level by level. An item of
// level i stands for 2^i input values.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ember::functions::kll {

template <typename T>
class KllSketch {
 public:
  /// Reads a serialized sketch of items of type T (int64_t, float or double); nullopt when
  /// the bytes are not one.
  static std::optional<KllSketch> deserialize(std::string_view bytes);

  int64_t n() const { return n_; }
  bool empty() const { return n_ == 0; }
  /// The normalized rank of `v`: the weight of the retained items not above it over n.
  double rank(T v) const;
  /// The smallest retained item whose cumulative weight reaches rank * n (ranks in [0, 1]).
  T quantile(double rank) const;

 private:
  int64_t n_ = 0;
  std::vector<T> sorted_;            // retained items in ascending order
  std::vector<int64_t> cumulative_;  // cumulative weights of sorted_
};

extern template class KllSketch<int64_t>;
extern template class KllSketch<float>;
extern template class KllSketch<double>;

}  // namespace ember::functions::kll
