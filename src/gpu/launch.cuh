#pragma once

// Launch helpers shared by the .cu files: the raw stream handle and a grid size for
// grid-stride kernels of 256 threads per block.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gpu/device.h"
#include "gpu/memory.h"

namespace ember::gpu {

inline cudaStream_t raw(const Stream& s) { return static_cast<cudaStream_t>(s.handle()); }

/// Blocks of 256 threads for `items` items, at most 8 per multiprocessor (the kernels loop).
inline int grid_for(uint64_t items) {
  uint64_t blocks = (items + 255) / 256;
  return static_cast<int>(std::max<uint64_t>(
      1, std::min<uint64_t>(blocks, static_cast<uint64_t>(device_info().multiprocessors) * 8)));
}

}  // namespace ember::gpu
