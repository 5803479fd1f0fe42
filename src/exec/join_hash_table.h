#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "column/column.h"
#include "common/host_device.h"

namespace ember::exec {

/// The slot hash of a combined integer key (kInt64 tables), shared with the GPU probe.
EMBER_HOST_DEVICE inline uint64_t join_int_hash(int64_t k) {
  uint64_t h = static_cast<uint64_t>(k);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

/// The build side of a hash join: every build row, and an index over the join keys of the rows
/// that can match (rows whose keys are null under `=` never match and are kept only for outer
/// output). Immutable once built, so probes run concurrently.
///
/// The index takes the cheapest form the build keys allow:
///  - integer keys (byte to long, date, timestamp) under `=` whose build-side ranges multiply
///    to less than 2^62 combine into one int64 per row, `sum (k_i - min_i) * stride_i`; a probe
///    key outside a build range matches nothing without a lookup. When the combined range is
///    small for the row count (dense keys, as surrogate keys are), the index is an array
///    indexed by the combined key: no hashing and no key comparison (kDirect); otherwise an open
///    addressing table of 16-byte slots (kInt64). When the keys are distinct and fill their
///    range (1..N surrogate keys) and the caller allows it, the rows are stored in key order,
///    so that a probe key is its build row and the probe reads no index (`dense_keys`);
///  - other fixed-width keys that fit 16 bytes: open addressing over 128-bit packed keys;
///  - anything else: chained buckets over encoded key bytes.
/// Rows with equal keys chain through `next_` in build order.
class JoinHashTable {
 public:
  JoinHashTable() = default;
  /// Takes ownership of the build rows and indexes them. `keys` are the build rows' key
  /// columns; `null_safe[k]` says key k compares with `<=>` (nulls equal). `may_reorder`: the
  /// rows may be stored in another order than given (`rows()` then returns them so), for
  /// callers to whom the build order of rows with distinct keys means nothing.
  void build(Batch rows, const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
             bool may_reorder = false);

  /// Appends (probe row, build row) for every build row whose key equals the probe row's key,
  /// in probe row order. Probe rows with a null key under `=` match nothing.
  /// `first_only`: one pair per matching probe row (its first build row), for semi, anti and
  /// existence joins without a residual condition, so a key repeated on the build side costs
  /// one step, not one per duplicate.
  void probe(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe, int64_t n,
             std::vector<int32_t>& probe_rows, std::vector<int32_t>& build_rows, bool first_only = false) const;

  const Batch& rows() const { return rows_; }
  int64_t size() const { return rows_.num_rows; }

  /// No two build rows that can match share a key: a probe row matches at most once, so a
  /// batch with as many pairs as rows pairs every row with itself in order.
  bool unique_keys() const { return unique_keys_; }
  /// kDirect with distinct keys filling their range, rows stored in key order: build row k
  /// holds combined key k.
  bool dense_keys() const { return dense_keys_; }

  enum class Mode { kDirect, kInt64, kPacked, kBytes };
  Mode mode() const { return mode_; }

  struct Int64Slot {
    int64_t key;
    int32_t first;  // -1: empty slot
  };
  /// The index of a table over integer keys (kDirect or kInt64) as flat arrays, so that it can
  /// be probed elsewhere (the GPU) with the same results: a probe key combined by
  /// `combine_int_keys` is either -1 (matches nothing), an index into `heads` (kDirect), or a key
  /// looked up in `slots` from `join_int_hash(key) & mask` on, linearly (kInt64). `next` chains
  /// rows of equal keys in build order.
  struct IntIndex {
    Mode mode;
    const int32_t* heads;
    size_t heads_len;
    const Int64Slot* slots;
    size_t slots_len;
    uint64_t mask;
    const int32_t* next;
    size_t rows;
  };
  /// Only for kDirect and kInt64 tables.
  IntIndex int_index() const;
  /// Each probe row's combined integer key, or -1 where the row cannot match (a null key, or a
  /// key outside the build side's range). Only for kDirect and kInt64 tables.
  void combine_int_keys(const std::vector<ColumnPtr>& keys, int64_t n, std::vector<int64_t>& out) const;

 private:
  struct PackedSlot {
    unsigned __int128 key;
    int32_t first;  // -1: empty slot
  };

  bool try_int_keys(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                    const std::vector<uint8_t>& skip, bool may_reorder);
  void build_int(const std::vector<int64_t>& combined, const std::vector<uint8_t>& skip);
  /// kDirect over one key whose matches are unique or asked for once: the key's values index
  /// the table directly (dense keys: they are the build rows), with no combined key per row.
  void probe_direct_one_key(const Column& key, int64_t n, std::vector<int32_t>& probe_rows,
                            std::vector<int32_t>& build_rows) const;
  void probe_int(const std::vector<int64_t>& combined, std::vector<int32_t>& probe_rows,
                 std::vector<int32_t>& build_rows, bool first_only) const;

  Batch rows_;
  Mode mode_ = Mode::kBytes;
  std::vector<int32_t> next_;  // row → next row of equal key, -1 at the end
  /// kDirect / kInt64 / kPacked: no two build rows share a key (every chain has one row), so a
  /// probe row matches at most once and its match's `next_` is never read.
  bool unique_keys_ = false;
  bool dense_keys_ = false;
  uint64_t mask_ = 0;
  // kDirect / kInt64.
  std::vector<int64_t> key_min_, key_max_, key_stride_;
  std::vector<int32_t> direct_;  // combined key → first row, -1 when none
  std::vector<Int64Slot> int_slots_;
  // kPacked.
  std::vector<PackedSlot> slots_;
  // kBytes.
  std::string arena_;
  std::vector<uint32_t> offsets_, lengths_;
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> heads_;  // bucket → first row, -1 when empty
};

/// True for rows where some key that is not null-safe is null: such rows match nothing.
std::vector<uint8_t> null_key_rows(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                                   int64_t n);

}  // namespace ember::exec
