#pragma once

#include <arrow/memory_pool.h>

namespace ember::io {

/// The Arrow memory pool io uses for Parquet decoding and Arrow compute: Arrow's allocator,
/// with every byte also reserved in Ember's accounting (the `io.arrow` pool under the root), so
/// that memory held by Arrow buffers shows in Ember's totals and honours its limits (a refused
/// reservation is an Arrow out-of-memory status).
arrow::MemoryPool* arrow_pool();

}  // namespace ember::io
