#pragma once

// Theta sketches as Apache DataSketches defines them, binary-compatible with its compact
// serialized forms (serial version 3, and the delta-compressed serial version 4 that Spark
// writes), plus the update, union, intersection and difference operations Spark's theta
// functions use. The tuple sketches (sketch_tuple.h) build on the hashing and constants here.
//
// A theta sketch keeps the hashes of distinct inputs that fall below theta, a threshold in
// (0, 2^63 - 1]; the estimate of distinct inputs is retained / (theta / 2^63). Hashes are the
// first 64 bits of MurmurHash3 x64 128 (seed 9001) shifted right by one.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ember::functions::sketch {

constexpr uint64_t kMaxTheta = 0x7fffffffffffffffULL;  // theta of an exact sketch
constexpr uint64_t kDefaultSeed = 9001;
constexpr int kMinLgNomEntries = 4;
constexpr int kMaxLgNomEntries = 26;
constexpr int kDefaultLgNomEntries = 12;

/// The 16-bit hash of the seed that serialized sketches carry (0x93cc for seed 9001).
uint16_t seed_hash();

// Hashes of one input value as the sketches' update methods compute them. A result of 0 means
// the value is ignored (empty strings, binaries and arrays).
uint64_t hash_long(int64_t v);
/// -0.0 counts as 0.0 and every NaN as the canonical NaN.
uint64_t hash_double(double v);
uint64_t hash_bytes(std::string_view b);
uint64_t hash_ints(const int32_t* v, size_t n);
uint64_t hash_longs(const int64_t* v, size_t n);

/// Family ids of serialized DataSketches images, and their names as error messages show them.
constexpr uint8_t kFamilyCompact = 3;
constexpr uint8_t kFamilyTuple = 9;
std::string family_name(uint8_t id);

/// A compact theta sketch: the retained hashes in ascending order, all below `theta`.
struct CompactTheta {
  uint64_t theta = kMaxTheta;
  bool empty = true;
  std::vector<uint64_t> entries;

  bool estimation_mode() const { return theta < kMaxTheta; }
  double estimate() const;
  /// Serializes as Spark does: the compressed form (serial version 4) when it applies, the
  /// plain compact form (serial version 3) for empty and single-item sketches.
  std::string serialize() const;
};

/// Why a buffer could not be read as a sketch.
enum class ReadStatus { kOk, kInvalid, kWrongFamily };

/// Reads a compact theta sketch image (serial versions 3 and 4, ordered or not). On
/// kWrongFamily, `family` is the id found.
ReadStatus read_theta(std::string_view bytes, CompactTheta& out, uint8_t& family);

/// Accumulates hashes (an update sketch) or whole sketches (a union) with nominal size
/// k = 2^lg_k. Whatever the order of updates and merges, `result` is the same sketch:
/// theta is the smallest input theta, or the (k+1)-th smallest retained hash when more than
/// k hashes remain below it, and the retained hashes are those below theta.
class ThetaAccumulator {
 public:
  explicit ThetaAccumulator(int lg_k = kDefaultLgNomEntries) : lg_k_(lg_k) {}
  int lg_k() const { return lg_k_; }
  void update_hash(uint64_t hash);
  void merge(const CompactTheta& s);
  void merge(const ThetaAccumulator& other);
  CompactTheta result() const;
  /// Nothing added yet: the nominal size may still change (it is known at the first row).
  bool pristine() const { return empty_ && retained_.empty() && pending_.empty() && theta_ == kMaxTheta; }

 private:
  /// Folds pending hashes into the sorted retained set and trims it to k when it has grown
  /// past 2k.
  void compact(bool final_trim);
  int lg_k_;
  uint64_t theta_ = kMaxTheta;
  bool empty_ = true;
  std::vector<uint64_t> retained_;  // sorted, distinct, below theta_
  std::vector<uint64_t> pending_;   // unsorted, may repeat
};

/// Intersection (Spark's theta_intersection and theta_intersection_agg): the first sketch is
/// taken as is, each next one intersects. `result` before any sketch is the empty sketch.
class ThetaIntersection {
 public:
  void update(const CompactTheta& s);
  /// Intersects with another partial intersection (nothing when it saw no sketch).
  void merge(const ThetaIntersection& o) {
    if (o.started_) update(o.cur_);
  }
  CompactTheta result() const;

 private:
  bool started_ = false;
  CompactTheta cur_;
};

/// The hashes of `a` not in `b` (DataSketches' AnotB).
CompactTheta theta_a_not_b(const CompactTheta& a, const CompactTheta& b);

/// The (rank+1)-th smallest of `v` (0-based rank), reordering `v`.
uint64_t select_rank(std::vector<uint64_t>& v, size_t rank);

}  // namespace ember::functions::sketch
