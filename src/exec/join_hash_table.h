#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "column/column.h"

namespace ember::exec {

/// The build side of a hash join: every build row, and a chained hash table over the encoded
/// join keys of the rows that can match (rows whose keys are null under `=` never match and
/// are kept only for outer output). Immutable once built, so probes run concurrently.
class JoinHashTable {
 public:
  JoinHashTable() = default;
  /// Takes ownership of the build rows and indexes them. `keys` are the build rows' key
  /// columns; `null_safe[k]` says key k compares with `<=>` (nulls equal).
  void build(Batch rows, const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe);

  /// Appends (probe row, build row) for every build row whose key equals the probe row's key,
  /// in probe row order. Probe rows with a null key under `=` match nothing.
  void probe(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe, int64_t n,
             std::vector<int32_t>& probe_rows, std::vector<int32_t>& build_rows) const;

  const Batch& rows() const { return rows_; }
  int64_t size() const { return rows_.num_rows; }

 private:
  /// A slot of the packed-key table: a distinct key and the first build row holding it.
  struct PackedSlot {
    unsigned __int128 key;
    int32_t first;  // -1: empty slot
  };

  Batch rows_;
  // Packed keys (fixed-width key types that fit 16 bytes): open addressing over distinct keys,
  // one probe touching one slot when build keys are unique; rows of equal keys chain in next_.
  bool packed_ = false;
  std::vector<PackedSlot> slots_;
  // Byte keys (any types): chained buckets over encoded keys.
  std::string arena_;
  std::vector<uint32_t> offsets_, lengths_;
  std::vector<uint64_t> hashes_;
  std::vector<int32_t> heads_;  // bucket → first row, -1 when empty
  std::vector<int32_t> next_;   // row → next row of its chain
  uint64_t mask_ = 0;
};

/// True for rows where some key that is not null-safe is null: such rows match nothing.
std::vector<uint8_t> null_key_rows(const std::vector<ColumnPtr>& keys, const std::vector<bool>& null_safe,
                                   int64_t n);

}  // namespace ember::exec
