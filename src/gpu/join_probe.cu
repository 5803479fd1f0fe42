// Hash join probe on the device (see join_probe.h).

#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>

#include "gpu/cuda_check.cuh"
#include "gpu/error.h"
#include "gpu/join_probe.h"
#include "gpu/launch.cuh"
#include "gpu/program.h"

namespace ember::gpu {
namespace {

using Slot = exec::JoinHashTable::Int64Slot;
static_assert(sizeof(Slot) == 16, "the device reads the host's slot layout");

/// The index as the kernels see it.
struct Index {
  bool direct;
  const int32_t* heads;
  int64_t heads_len;
  const Slot* slots;
  uint64_t mask;
  const int32_t* next;
};

/// The first build row whose key is `key`, or -1.
__device__ __forceinline__ int32_t first_match(const Index& ix, int64_t key) {
  if (key < 0) return -1;
  if (ix.direct) return key < ix.heads_len ? ix.heads[key] : -1;
  uint64_t p = exec::join_int_hash(key) & ix.mask;
  for (;;) {
    Slot s = ix.slots[p];
    if (s.first < 0) return -1;
    if (s.key == key) return s.first;
    p = (p + 1) & ix.mask;
  }
}

__global__ void first_kernel(Index ix, const int64_t* __restrict__ keys, int64_t n,
                             int32_t* __restrict__ firsts) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    firsts[i] = first_match(ix, keys[i]);
}

__global__ void count_kernel(Index ix, const int64_t* __restrict__ keys, int64_t n, bool first_only,
                             int32_t* __restrict__ firsts, int64_t* __restrict__ counts) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int32_t b = first_match(ix, keys[i]);
    firsts[i] = b;
    int64_t c = 0;
    if (b >= 0) {
      if (first_only) {
        c = 1;
      } else {
        for (; b >= 0; b = ix.next[b]) ++c;
      }
    }
    counts[i] = c;
  }
}

__global__ void write_kernel(Index ix, const int32_t* __restrict__ firsts,
                             const int64_t* __restrict__ offsets, int64_t n, bool first_only,
                             int32_t* __restrict__ probe_out, int32_t* __restrict__ build_out) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t o = offsets[i];
    for (int32_t b = firsts[i]; b >= 0; b = first_only ? -1 : ix.next[b]) {
      probe_out[o] = static_cast<int32_t>(i);
      build_out[o] = b;
      ++o;
    }
  }
}

}  // namespace

DeviceJoinIndex::DeviceJoinIndex(const exec::JoinHashTable::IntIndex& index,
                                 DeviceMemoryPool& pool, const Stream& stream)
    : direct_(index.mode == exec::JoinHashTable::Mode::kDirect),
      mask_(index.mask),
      heads_len_(index.heads_len) {
  if (index.mode != exec::JoinHashTable::Mode::kDirect &&
      index.mode != exec::JoinHashTable::Mode::kInt64)
    throw Unsupported("only join keys indexed as integers are probed on the GPU");
  if (direct_) {
    heads_ = DeviceBuffer(std::max<size_t>(index.heads_len, 1) * 4, pool, stream);
    if (index.heads_len > 0) copy_to_device(heads_.data(), index.heads, index.heads_len * 4, stream);
  } else {
    slots_ = DeviceBuffer(std::max<size_t>(index.slots_len, 1) * sizeof(Slot), pool, stream);
    if (index.slots_len > 0)
      copy_to_device(slots_.data(), index.slots, index.slots_len * sizeof(Slot), stream);
  }
  unique_ = true;
  for (size_t i = 0; i < index.rows && unique_; ++i) unique_ = index.next[i] < 0;
  next_ = DeviceBuffer(std::max<size_t>(index.rows, 1) * 4, pool, stream);
  if (index.rows > 0) copy_to_device(next_.data(), index.next, index.rows * 4, stream);
  stream.synchronize();
}

DeviceJoinIndex::~DeviceJoinIndex() = default;

void DeviceJoinIndex::probe(const int64_t* keys, int64_t n, bool first_only,
                            DeviceMemoryPool& pool, const Stream& stream,
                            std::vector<int32_t>& probe_rows,
                            std::vector<int32_t>& build_rows) const {
  if (n <= 0) {
    probe_rows.clear();
    build_rows.clear();
    return;
  }
  const size_t rows = static_cast<size_t>(n);
  Index ix{direct_,           heads_.as<int32_t>(), static_cast<int64_t>(heads_len_),
           slots_.as<Slot>(), mask_,                next_.as<int32_t>()};
  DeviceBuffer d_keys(rows * 8, pool, stream), d_firsts(rows * 4, pool, stream);
  copy_to_device(d_keys.data(), keys, rows * 8, stream);
  if (unique_ || first_only) {
    // At most one build row per probe row: its index, or -1.
    first_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(ix, d_keys.as<int64_t>(), n,
                                                          d_firsts.as<int32_t>());
    EMBER_CUDA_CHECK_LAUNCH("first_kernel");
    std::vector<int32_t> firsts(rows);
    copy_to_host(firsts.data(), d_firsts.data(), rows * 4, stream);
    stream.synchronize();
    std::vector<int32_t> pr, br;
    pr.reserve(rows);
    br.reserve(rows);
    for (int64_t i = 0; i < n; ++i)
      if (firsts[static_cast<size_t>(i)] >= 0) {
        pr.push_back(static_cast<int32_t>(i));
        br.push_back(firsts[static_cast<size_t>(i)]);
      }
    probe_rows.swap(pr);
    build_rows.swap(br);
    return;
  }
  DeviceBuffer d_counts(rows * 8, pool, stream), d_offsets(rows * 8, pool, stream);
  count_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(ix, d_keys.as<int64_t>(), n, first_only,
                                                        d_firsts.as<int32_t>(),
                                                        d_counts.as<int64_t>());
  EMBER_CUDA_CHECK_LAUNCH("count_kernel");
  size_t temp_bytes = 0;
  EMBER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, d_counts.as<int64_t>(),
                                                 d_offsets.as<int64_t>(), n, raw(stream)));
  DeviceBuffer temp(std::max<size_t>(temp_bytes, 16), pool, stream);
  EMBER_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, d_counts.as<int64_t>(),
                                                 d_offsets.as<int64_t>(), n, raw(stream)));
  int64_t last[2] = {0, 0};
  copy_to_host(&last[0], d_offsets.as<int64_t>() + (n - 1), 8, stream);
  copy_to_host(&last[1], d_counts.as<int64_t>() + (n - 1), 8, stream);
  stream.synchronize();
  const int64_t total = last[0] + last[1];
  if (total > 0x7fffffffLL)
    throw Unsupported("a probe batch with more than 2^31 - 1 join pairs is not probed on the GPU");
  std::vector<int32_t> pr(static_cast<size_t>(total)), br(static_cast<size_t>(total));
  if (total > 0) {
    DeviceBuffer d_probe(static_cast<size_t>(total) * 4, pool, stream);
    DeviceBuffer d_build(static_cast<size_t>(total) * 4, pool, stream);
    write_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(
        ix, d_firsts.as<int32_t>(), d_offsets.as<int64_t>(), n, first_only,
        d_probe.as<int32_t>(), d_build.as<int32_t>());
    EMBER_CUDA_CHECK_LAUNCH("write_kernel");
    copy_to_host(pr.data(), d_probe.data(), static_cast<size_t>(total) * 4, stream);
    copy_to_host(br.data(), d_build.data(), static_cast<size_t>(total) * 4, stream);
    stream.synchronize();
  }
  probe_rows.swap(pr);
  build_rows.swap(br);
}

}  // namespace ember::gpu
