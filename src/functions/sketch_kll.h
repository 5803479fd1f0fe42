#pragma once

// KLL quantile sketches as Apache DataSketches builds, merges and serializes them, so that the
// BINARY values of Spark's kll_sketch_* functions move freely between Ember and Spark.
//
// Structure: items live in one array of `capacity()` slots split into levels; level h holds
// items that each stand for 2^h input values and occupies [levels[h], levels[h + 1]). The
// array fills from the top down: level 0 grows downwards from its end, and the free space is
// [0, levels[0]). A level's capacity depends on its depth below the top level: k scaled by
// (2/3)^depth, never under m = 8. When level 0 runs out of space, the lowest level at or over
// its capacity is compacted: sorted (level 0 only), an odd item left in place, and every other
// item (starting at a random offset) promoted into the level above, which may create a new top
// level. Level 0 is kept in arrival order (the latest item first).
//
// Serialized form (little-endian): byte 0 the preamble size in ints, 1 the serial version, 2
// the family (15), 3 flags (1 empty, 2 level zero sorted, 4 single item), 4-5 k, 6 m (8). An
// empty sketch ends there; a sketch of one item (serial version 2) follows with that item.
// Otherwise (five preamble ints, serial version 1): 8-15 n, 16-17 the dynamic minimum k, 18 the
// number of levels L, then the first L level offsets (the last one is the capacity, implied by
// k, m and L), the minimum and maximum items, and the retained items level by level.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions::kll {

constexpr int kDefaultK = 200;
constexpr int kMinK = 8;
constexpr int kMaxK = 65535;

template <typename T>
class KllSketch {
 public:
  /// An empty sketch with parameter k (kMinK..kMaxK).
  explicit KllSketch(int k = kDefaultK);

  /// Reads a serialized sketch of items of type T (int64_t, float or double); nullopt when
  /// the bytes are not one. Like DataSketches, it reads the items the levels announce and
  /// ignores bytes past them, so a sketch of one item type can be read as another of no
  /// greater width.
  static std::optional<KllSketch> deserialize(std::string_view bytes);
  /// The compact serialized form (empty, single-item or full layout).
  std::string serialize() const;

  /// Adds one value; NaN is ignored.
  void update(T v);
  /// Adds every value `other` summarizes. k stays this sketch's; the dynamic minimum k drops to
  /// other's when other has compacted anything (its items are then approximate).
  void merge(const KllSketch& other);

  int k() const { return k_; }
  int min_k() const { return min_k_; }
  int64_t n() const { return n_; }
  bool empty() const { return n_ == 0; }
  int num_levels() const { return static_cast<int>(levels_.size()) - 1; }
  uint32_t capacity() const { return levels_.back(); }
  uint32_t retained() const { return levels_.back() - levels_[0]; }
  bool estimation_mode() const { return num_levels() > 1; }
  T min_item() const { return min_; }
  T max_item() const { return max_; }

  /// The normalized rank of `v`: the weight of the retained items not above it over n.
  double rank(T v) const;
  /// The smallest retained item whose cumulative weight reaches rank * n (ranks in [0, 1]).
  T quantile(double rank) const;

  /// DataSketches' summary text of the sketch (its toString without levels or items).
  std::string summary() const;

  /// The number of item slots of a sketch with `num_levels` levels.
  static uint32_t total_capacity(int k, int num_levels);

 private:
  struct SortedView {
    std::vector<T> items;             // retained items in ascending order
    std::vector<int64_t> cumulative;  // cumulative weights of items
  };
  const SortedView& view() const;
  void compress_while_updating();
  void add_empty_top_level();
  uint64_t random_bit();

  uint16_t k_;
  uint16_t min_k_;
  int64_t n_ = 0;
  T min_{};
  T max_{};
  std::vector<uint32_t> levels_;  // num_levels + 1 offsets into items_; the last is the capacity
  std::vector<T> items_;
  bool level0_sorted_ = false;
  uint64_t rng_;
  mutable std::optional<SortedView> view_;
};

extern template class KllSketch<int64_t>;
extern template class KllSketch<float>;
extern template class KllSketch<double>;

}  // namespace ember::functions::kll
