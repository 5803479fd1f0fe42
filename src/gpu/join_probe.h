#pragma once

// The probe of a hash join on the device. The CPU builds the join's index as always
// (exec/join_hash_table.h); when the build keys are integers its flat arrays are copied to the
// device once, and each probe batch's combined keys are looked up there: one kernel counts each
// probe row's matches (without walking the chains when every build key is unique or only the
// first match counts), a scan turns the counts into output offsets, a second kernel writes the
// (probe row, build row) pairs. The build side's fixed-width columns, copied to the device once
// as well, are then gathered at the pairs' build rows there, so the host receives the output's
// build columns ready and gathers only what stays on it (strings, booleans, the probe side's
// columns). Pairs come in the order the CPU probe gives them (probe rows in order, each row's
// matches in build order), so results do not depend on where the probe ran.

#include <cstdint>
#include <vector>

#include "exec/hash_join.h"
#include "exec/join_hash_table.h"
#include "gpu/device_column.h"
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

  /// Answers `request` for the `n` probe rows whose combined keys (see
  /// JoinHashTable::combine_int_keys) are `keys`: the pairs into `result`, and with
  /// `request.gather_build` each of `columns` (the build side's columns on the device, in build
  /// row order; null entries stay with the caller) gathered at the pairs' build rows into
  /// `result.build_columns`. Copies go through `pinned` when it has room. Runs on `stream` and
  /// waits for it. Throws GpuOutOfMemory or GpuError, leaving `result` unspecified.
  void probe(const int64_t* keys, int64_t n, const exec::JoinProbeRequest& request,
             const std::vector<const DeviceColumn*>& columns, DeviceMemoryPool& pool,
             const Stream& stream, exec::JoinProbeResult& result,
             PinnedPool* pinned = nullptr) const;

  /// Device bytes the index holds.
  size_t bytes() const { return heads_.size() + slots_.size() + next_.size(); }

  /// Whether `probe` gathers a build column of this type on the device: fixed-width values
  /// (booleans, packed as bits, stay with the host).
  static bool gathers(const DataType& type);

 private:
  bool direct_ = true;
  bool unique_ = false;  // no build key repeats: every chain has one row
  uint64_t mask_ = 0;
  size_t heads_len_ = 0;
  DeviceBuffer heads_, slots_, next_;
};

}  // namespace ember::gpu
