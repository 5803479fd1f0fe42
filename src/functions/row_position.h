#pragma once

// Where a row sits in an aggregate's input, for aggregates whose result depends on the order of
// the rows (first, last, max_by and min_by among ties, listagg). The engine's threads take a
// pipeline's batches in turn and their partial states merge in no particular order, so such a
// state keeps the positions of its rows and orders them by position, not by arrival.

#include <cstdint>

#include "functions/rand.h"

namespace ember::functions {

/// A row's batch (`Batch::index`, which orders the batches of a pipeline as its source produced
/// them; `PartitionContext::batch` while an aggregate updates) and its row within the batch.
struct RowPosition {
  int64_t batch;
  int64_t row;
  bool operator<(const RowPosition& o) const { return batch != o.batch ? batch < o.batch : row < o.row; }
};

/// The batch index of the rows an aggregate's `update` receives now (rows of one call are one
/// batch's, in order).
inline int64_t current_batch() { return current_partition().batch; }

}  // namespace ember::functions
