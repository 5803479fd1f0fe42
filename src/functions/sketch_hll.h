#pragma once

// HyperLogLog sketches as Apache DataSketches defines them (its HllSketch and Union), byte
// compatible with the library's updatable serialized images, which is what Spark's hll_*
// functions write and read.
//
// Every input value becomes a 32-bit coupon: the low 26 bits of the first half of its
// MurmurHash3 x64 128 hash (seed 9001) address a slot, the top 6 bits hold one plus the number
// of leading zeros of the second half (at most 63). A sketch with K = 2^lgK slots moves through
// three modes as coupons arrive:
//   LIST  up to 8 coupons in arrival order;
//   SET   an open-addressing hash set of coupons (from lgK 8 on), growing from 32 entries up to
//         K / 8 and kept at most three quarters full;
//   HLL   one byte register per slot holding the largest value seen (the HLL_8 layout), with
//         the historic inverse probability (HIP) accumulator and the running sum of 2^-register
//         (kxq0 for values below 32, kxq1 above) that the estimators use.
// The estimate of an in-order sketch is the HIP accumulator; a sketch built by merging
// registers is "out of order" and uses the composite estimator (interpolated raw HLL
// estimate, or linear counting for small cardinalities). LIST and SET estimate from the
// coupon count.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions::sketch {

constexpr int kHllMinLgK = 4;
constexpr int kHllMaxLgK = 21;
constexpr int kHllDefaultLgK = 12;

enum class HllMode : uint8_t { kList = 0, kSet = 1, kHll = 2 };

/// The coupon of an input value; 0 for values a sketch ignores (empty strings and binaries).
uint32_t hll_coupon_long(int64_t v);
uint32_t hll_coupon_bytes(std::string_view b);

class HllSketch {
 public:
  explicit HllSketch(int lg_k = kHllDefaultLgK);

  int lg_k() const { return lg_k_; }
  HllMode mode() const { return mode_; }
  /// No coupon yet (an HLL-mode sketch is never empty).
  bool empty() const { return mode_ != HllMode::kHll && count_ == 0; }
  bool out_of_order() const { return ooo_; }
  /// Coupons held in LIST or SET mode.
  int coupon_count() const { return count_; }

  /// Adds one coupon (0 is ignored).
  void update(uint32_t coupon);
  /// Adds the coupons of a LIST or SET sketch in its array order, as a union replays them.
  void update_from(const HllSketch& coupons);
  /// The distinct-count estimate (Spark rounds it to the nearest integer).
  double estimate() const;
  /// The composite estimator over the registers (HLL mode).
  double composite_estimate() const;

  /// The updatable image (HLL_8 registers in HLL mode).
  std::string serialize() const;
  /// Reads an image Spark or DataSketches wrote (LIST, SET, HLL mode; HLL_4, HLL_6 and HLL_8
  /// registers; updatable or compact). False for bytes that are not such an image.
  static bool deserialize(std::string_view bytes, HllSketch& out);

  /// Register values (HLL mode), for tests.
  const std::vector<uint8_t>& registers() const { return regs_; }

 private:
  friend class HllUnion;

  void list_update(uint32_t coupon);
  void set_update(uint32_t coupon);
  /// Inserts into the hash set without the growth check; false for a duplicate.
  bool set_insert(uint32_t coupon);
  void grow_set(int lg_arr);
  /// Raises one register to `value` with the incremental HIP and kxq bookkeeping.
  void hll_slot_update(uint32_t slot, int value);
  /// Switches a LIST or SET sketch to HLL mode, replaying its coupons in array order.
  void promote_to_hll();
  /// Marks an HLL sketch's registers as merged (its HIP accumulator is then cleared).
  void set_out_of_order(bool ooo);
  /// Recomputes kxq, the minimum register and its count after registers were merged.
  void rebuild();
  double coupon_estimate() const;
  /// The coupons of a LIST or SET sketch in array order.
  std::vector<uint32_t> coupons() const;
  /// This HLL sketch's registers folded to `lg_k` through coupon updates (the HIP accumulator
  /// and out-of-order flag copied).
  HllSketch downsampled(int lg_k) const;
  /// Raises registers to `src`'s, folding a larger source onto this sketch's slots.
  void merge_registers(const HllSketch& src);

  int lg_k_;
  HllMode mode_ = HllMode::kList;
  bool ooo_ = false;
  // LIST and SET.
  int lg_arr_ = 3;
  int count_ = 0;
  std::vector<uint32_t> arr_;
  // HLL.
  std::vector<uint8_t> regs_;
  double hip_ = 0;
  double kxq0_ = 0;
  double kxq1_ = 0;
  int cur_min_ = 0;
  int num_at_cur_min_ = 0;
  bool rebuild_ = false;
};

/// DataSketches' Union: merges sketches of any lgK into a gadget of at most `lg_max_k`.
/// Results depend on the order of updates exactly as the library's do.
class HllUnion {
 public:
  explicit HllUnion(int lg_max_k = kHllDefaultLgK) : lg_max_k_(lg_max_k), gadget_(lg_max_k) {}
  /// The gadget's lgK (smaller than lg_max_k once a smaller sketch was merged).
  int lg_k() const { return gadget_.lg_k(); }
  bool empty() const { return gadget_.empty(); }
  /// `wrapped`: the source is read in place from its image (Spark's hll_union_agg), which
  /// replays a SET sketch's coupons instead of copying the set.
  void update(const HllSketch& src, bool wrapped = false);
  /// The merged sketch (after settling the registers' bookkeeping in the gadget).
  HllSketch result() &;
  /// The same, moved out of a union that is done.
  HllSketch result() &&;

 private:
  int lg_max_k_;
  HllSketch gadget_;
};

}  // namespace ember::functions::sketch
