#pragma once

// The probe of a hash join on the device. The CPU builds the join's index as always
// (exec/join_hash_table.h); when the build keys are integers its flat arrays are copied to the
// device once, and each probe batch's combined keys are looked up there: one kernel counts each
// probe row's matches, a scan turns the counts into output offsets, a second kernel writes the
// (probe row, build row) pairs, which come back to the host to be gathered. When every build key
// is unique (a dimension table) or only the first match counts, one kernel finds each probe
// row's build row and the host reads the pairs off that list, without the count and the scan. Pairs come in the
// order the CPU probe gives them (probe rows in order, each row's matches in build order), so
// results do not depend on where the probe ran.

#include <cstdint>
#include <vector>

#include "exec/join_hash_table.h"
#include "gpu/memory.h"

namespace ember::gpu {

class DeviceJoinIndex {
 public:
  /// Copies `index` (a kDirect or kInt64 table) to the device on `stream`. Throws
  /// GpuOutOfMemory or GpuError.
  DeviceJoinIndex(const exec::JoinHashTable::IntIndex& index, DeviceMemoryPool& pool,
                  const Stream& stream);
  ~DeviceJoinIndex();
  DeviceJoinIndex(const DeviceJoinIndex&) = delete;
  DeviceJoinIndex& operator=(const DeviceJoinIndex&) = delete;

  /// Replaces `probe_rows` / `build_rows` with the pairs of the `n` probe rows whose combined
  /// keys (see JoinHashTable::combine_int_keys) are `keys`; `first_only`: each matching probe
  /// row's first build row only. Runs on `stream` and waits for it. Throws GpuOutOfMemory or
  /// GpuError, leaving the vectors as they were.
  void probe(const int64_t* keys, int64_t n, bool first_only, DeviceMemoryPool& pool,
             const Stream& stream, std::vector<int32_t>& probe_rows,
             std::vector<int32_t>& build_rows) const;

  /// Device bytes the index holds.
  size_t bytes() const { return heads_.size() + slots_.size() + next_.size(); }

 private:
  bool direct_ = true;
  bool unique_ = false;  // no build key repeats: every chain has one row
  uint64_t mask_ = 0;
  size_t heads_len_ = 0;
  DeviceBuffer heads_, slots_, next_;
};

}  // namespace ember::gpu
