#pragma once

// Tuple sketches as Apache DataSketches defines them: a theta sketch whose retained hashes
// each carry a summary, here a DOUBLE or an INT summary with its mode (sum, min, max,
// alwaysone), binary-compatible with the library's compact serialized form (family TUPLE,
// serial version 3). The hash tables follow the library's open addressing, growth and
// quick-select rebuilds, so the order of serialized entries is the library's order.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "functions/sketch_theta.h"

namespace ember::functions::sketch {

enum class SummaryMode : uint8_t { kSum = 0, kMin = 1, kMax = 2, kAlwaysOne = 3 };

/// Reads a mode name (case-insensitive: sum, min, max, alwaysone).
bool parse_summary_mode(std::string_view name, SummaryMode& mode);

/// One summary: its value and the mode it was built with (serialized beside the value).
template <typename V>
struct Summary {
  V value{};
  SummaryMode mode = SummaryMode::kSum;
};

/// A new summary of `mode`: 0 for sum, the largest value for min, the least for max, 1 for
/// alwaysone.
template <typename V>
Summary<V> new_summary(SummaryMode mode);
/// Adds `x` to `s` by its mode (INT sums wrap around as Java ints do).
template <typename V>
void update_summary(Summary<V>& s, V x);

/// A compact tuple sketch: retained hashes below theta and their summaries, in table order.
template <typename V>
struct CompactTuple {
  uint64_t theta = kMaxTheta;
  bool empty = true;
  std::vector<uint64_t> hashes;
  std::vector<Summary<V>> summaries;

  bool estimation_mode() const { return theta < kMaxTheta; }
  double theta_fraction() const { return static_cast<double>(theta) / 9223372036854775807.0; }
  double estimate() const;
  std::string serialize() const;
};

template <typename V>
ReadStatus read_tuple(std::string_view bytes, CompactTuple<V>& out, uint8_t& family);

/// The library's quick-select hash table of hash -> summary with nominal size k = 2^lg_k.
/// Serves the update sketch (`update`) and the union (`merge*`); `result` is the union's
/// result: the entries below the smallest theta, cut to the k smallest hashes.
template <typename V>
class TupleTable {
 public:
  explicit TupleTable(int lg_k = kDefaultLgNomEntries);
  int lg_k() const { return lg_k_; }
  /// Update sketch: the key's summary (new for a new key) takes `value`.
  void update(uint64_t hash, V value, SummaryMode mode);
  /// Union of a tuple sketch: new keys copy their summary, present keys combine both values
  /// in a new summary of `mode`.
  void merge(const CompactTuple<V>& s, SummaryMode mode);
  /// Union of a theta sketch, whose keys carry a new summary of `mode`.
  void merge_theta(const CompactTheta& s, SummaryMode mode);
  /// Union of another table (partial aggregation states).
  void merge(const TupleTable& other, SummaryMode mode);
  CompactTuple<V> result() const;

 private:
  void merge_entry(uint64_t hash, const Summary<V>& s, SummaryMode mode);
  /// The slot of `hash`, inserting it when absent (`inserted` tells which).
  size_t find_or_insert(uint64_t hash, bool& inserted);
  void rebuild_if_needed();
  void rebuild(int lg_capacity);
  uint64_t threshold() const;

  int lg_k_;
  int lg_cur_;
  uint64_t theta_ = kMaxTheta;        // the table's own theta (quick-select rebuilds)
  uint64_t input_theta_ = kMaxTheta;  // the smallest theta of merged sketches
  bool empty_ = true;
  uint64_t count_ = 0;
  std::vector<uint64_t> hashes_;  // 0 = free slot
  std::vector<Summary<V>> summaries_;
};

/// Intersection of tuple sketches (and theta sketches, whose keys carry a new summary of the
/// mode): summaries of keys in both combine in a new summary of the mode.
template <typename V>
class TupleIntersection {
 public:
  explicit TupleIntersection(SummaryMode mode) : mode_(mode) {}
  void update(const CompactTuple<V>& s);
  void update_theta(const CompactTheta& s);
  /// Intersects with another partial intersection (nothing when it saw no sketch).
  void merge(const TupleIntersection& o) {
    if (o.started_) update(o.cur_);
  }
  CompactTuple<V> result() const;

 private:
  SummaryMode mode_;
  bool started_ = false;
  CompactTuple<V> cur_;
};

/// The entries of `a` whose hashes are not in `b_hashes` (sorted), with theta the smaller of
/// both; `b_empty` and `b_theta` describe the other sketch.
template <typename V>
CompactTuple<V> tuple_a_not_b(const CompactTuple<V>& a, bool b_empty, uint64_t b_theta,
                              const std::vector<uint64_t>& b_hashes);

}  // namespace ember::functions::sketch
