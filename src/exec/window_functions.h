#pragma once

// Window function evaluation over sorted partitions: frames, ranking, offset and value
// functions, and aggregates over any frame. The Window operator (window.h) sorts and chunks its
// input and calls `evaluate_window_call` once per call and chunk.

#include <cstdint>
#include <vector>

#include "column/column.h"
#include "exec/window.h"

namespace ember::exec {

/// Rows of whole window partitions, in window order (partition keys, then order keys).
struct WindowChunk {
  int64_t length = 0;
  /// Start of each partition, then `length`.
  std::vector<int64_t> partition_starts;
  /// 1 where a row starts a new peer group (rows equal on every order key are peers).
  std::vector<uint8_t> peer_break;
  /// The first order key in window order, for RANGE frames with value offsets.
  ColumnPtr range_key;
  bool range_ascending = true;
  bool range_nulls_first = true;
};

/// Frame of each row of one partition, as [start, end) positions within the partition.
struct PartitionFrames {
  std::vector<int64_t> start, end;
};

/// Computes the frame of every row of a partition of `n` rows whose peer groups are given by
/// `peer_start` / `peer_end`; `key` / `key_offset` locate the RANGE order key (may be null for
/// ROWS frames or RANGE frames without value offsets).
PartitionFrames compute_frames(const FrameBounds& frame, int64_t n, const std::vector<int64_t>& peer_start,
                               const std::vector<int64_t>& peer_end, const WindowChunk& chunk, int64_t key_offset);

/// Evaluates `call` over every partition of `chunk`. `args` are the call's evaluated arguments
/// in window order (chunk length each). Returns a column of the call's result type.
ColumnPtr evaluate_window_call(const WindowCall& call, const std::vector<ColumnPtr>& args, const WindowChunk& chunk,
                               const functions::EvalContext& ctx);

}  // namespace ember::exec
