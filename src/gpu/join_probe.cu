// Hash join probe on the device (see join_probe.h).

#include <cuda_runtime.h>

#include <cstring>
#include <cub/device/device_scan.cuh>
#include <numeric>

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

/// Each probe row's first build row and its number of pairs; `one`: at most one pair a row
/// (unique build keys, or only the first match counts), so no chain is walked.
__global__ void count_kernel(Index ix, const int64_t* __restrict__ keys, int64_t n, bool one,
                             int32_t* __restrict__ firsts, int64_t* __restrict__ counts) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int32_t b = first_match(ix, keys[i]);
    firsts[i] = b;
    int64_t c = 0;
    if (b >= 0) {
      if (one) {
        c = 1;
      } else {
        for (; b >= 0; b = ix.next[b]) ++c;
      }
    }
    counts[i] = c;
  }
}

__global__ void write_kernel(Index ix, const int32_t* __restrict__ firsts,
                             const int64_t* __restrict__ offsets, int64_t n, bool one,
                             int32_t* __restrict__ probe_out, int32_t* __restrict__ build_out) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t o = offsets[i];
    for (int32_t b = firsts[i]; b >= 0; b = one ? -1 : ix.next[b]) {
      probe_out[o] = static_cast<int32_t>(i);
      build_out[o] = b;
      ++o;
    }
  }
}

/// out[i] = src[rows[i]] for values of one width (T: an unsigned integer or a 16-byte vector).
template <typename T>
__global__ void gather_kernel(const T* __restrict__ src, const int32_t* __restrict__ rows,
                              int64_t n, T* __restrict__ out) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    out[i] = src[rows[i]];
}

/// The validity bits of `src` at `rows`, as an Arrow bitmap in 32-bit words: each warp takes
/// 32 consecutive outputs and its first lane writes their word, so no two threads share a
/// word. The loop bound is the same for every lane of a warp, as the ballot needs.
__global__ void gather_validity_kernel(const uint8_t* __restrict__ src,
                                       const int32_t* __restrict__ rows, int64_t n,
                                       uint32_t* __restrict__ out) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / 32);
  for (int64_t w = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / 32; w * 32 < n;
       w += warps) {
    const int64_t i = w * 32 + lane;
    bool valid = false;
    if (i < n) {
      const int32_t r = rows[i];
      valid = (src[r >> 3] >> (r & 7)) & 1;
    }
    const uint32_t bits = __ballot_sync(0xffffffffu, valid);
    if (lane == 0) out[w] = bits;
  }
}

template <typename T>
void launch_gather(const void* src, const int32_t* rows, int64_t n, void* out,
                   const Stream& stream) {
  gather_kernel<T><<<grid_for(static_cast<uint64_t>(n)), 256, 0, raw(stream)>>>(
      static_cast<const T*>(src), rows, n, static_cast<T*>(out));
  EMBER_CUDA_CHECK_LAUNCH("gather_kernel");
}

/// One block of the pinned staging pool, given back once the stream's work on it is done.
class PinnedBlock {
 public:
  PinnedBlock(PinnedPool* pool, size_t bytes, const Stream& stream)
      : pool_(pool),
        stream_(stream),
        data_(pool != nullptr && bytes > 0 ? static_cast<uint8_t*>(pool->allocate(bytes))
                                           : nullptr) {}
  ~PinnedBlock() {
    if (data_ == nullptr) return;
    cudaStreamSynchronize(raw(stream_));  // a copy may still use it when a throw got here
    pool_->free(data_);
  }
  PinnedBlock(const PinnedBlock&) = delete;
  PinnedBlock& operator=(const PinnedBlock&) = delete;
  uint8_t* data() const { return data_; }

 private:
  PinnedPool* pool_;
  const Stream& stream_;
  uint8_t* data_;
};

/// The device → host copies of one probe batch, queued together once every kernel is: through
/// one block of the pinned pool when it has room (page-locked copies run at the link's speed,
/// pageable ones through the driver's own staging), else straight into the host buffers.
class Downloads {
 public:
  void add(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    items_.push_back({dst, src, bytes, total_});
    total_ += (bytes + 255) / 256 * 256;
  }
  /// Copies, waits for the stream, and moves staged bytes to their destinations.
  void run(const Stream& stream, PinnedPool* pinned) {
    PinnedBlock stage(pinned, total_, stream);
    for (const Item& c : items_)
      copy_to_host(stage.data() != nullptr ? stage.data() + c.offset : c.dst, c.src, c.bytes,
                   stream);
    stream.synchronize();
    if (stage.data() != nullptr)
      for (const Item& c : items_) std::memcpy(c.dst, stage.data() + c.offset, c.bytes);
  }

 private:
  struct Item {
    void* dst;
    const void* src;
    size_t bytes, offset;
  };
  std::vector<Item> items_;
  size_t total_ = 0;
};

/// `column` at the `n` device rows `rows`, as a host column whose buffers `downloads` fills:
/// the values (and the validity bitmap, when the column has nulls) gathered on the device into
/// buffers `keep` holds until then.
ColumnPtr gather_column(const DeviceColumn& column, const int32_t* rows, int64_t n,
                        DeviceMemoryPool& pool, const Stream& stream, Downloads& downloads,
                        std::vector<DeviceBuffer>& keep) {
  const int width = column.type->byte_width();
  const size_t bytes = static_cast<size_t>(n) * static_cast<size_t>(width);
  DeviceBuffer values(bytes, pool, stream);
  switch (width) {
    case 1:
      launch_gather<uint8_t>(column.data.data(), rows, n, values.data(), stream);
      break;
    case 2:
      launch_gather<uint16_t>(column.data.data(), rows, n, values.data(), stream);
      break;
    case 4:
      launch_gather<uint32_t>(column.data.data(), rows, n, values.data(), stream);
      break;
    case 8:
      launch_gather<uint64_t>(column.data.data(), rows, n, values.data(), stream);
      break;
    case 16:
      launch_gather<uint4>(column.data.data(), rows, n, values.data(), stream);
      break;
    default:
      throw Unsupported("columns of " + std::to_string(width) +
                        "-byte values are not gathered on the GPU");
  }
  BufferPtr data = Buffer::allocate(bytes);
  downloads.add(data->mutable_data(), values.data(), bytes);
  keep.push_back(std::move(values));
  BufferPtr validity;
  if (column.validity) {
    DeviceBuffer bits(static_cast<size_t>((n + 31) / 32) * 4, pool, stream);
    gather_validity_kernel<<<grid_for(static_cast<uint64_t>(n)), 256, 0, raw(stream)>>>(
        column.validity.as<uint8_t>(), rows, n, bits.as<uint32_t>());
    EMBER_CUDA_CHECK_LAUNCH("gather_validity_kernel");
    validity = Buffer::allocate(static_cast<size_t>(bitmap_bytes(n)));
    downloads.add(validity->mutable_data(), bits.data(), static_cast<size_t>(bitmap_bytes(n)));
    keep.push_back(std::move(bits));
  }
  return Column::make(column.type, n, validity, data, nullptr, {}, validity ? -1 : 0);
}

}  // namespace

bool DeviceJoinIndex::gathers(const DataType& type) {
  const int w = type.byte_width();
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

DeviceJoinIndex::DeviceJoinIndex(const exec::JoinHashTable::IntIndex& index, DeviceMemoryPool& pool,
                                 const Stream& stream)
    : direct_(index.mode == exec::JoinHashTable::Mode::kDirect),
      mask_(index.mask),
      heads_len_(index.heads_len) {
  if (index.mode != exec::JoinHashTable::Mode::kDirect &&
      index.mode != exec::JoinHashTable::Mode::kInt64)
    throw Unsupported("only join keys indexed as integers are probed on the GPU");
  if (direct_) {
    heads_ = DeviceBuffer(std::max<size_t>(index.heads_len, 1) * 4, pool, stream);
    if (index.heads_len > 0)
      copy_to_device(heads_.data(), index.heads, index.heads_len * 4, stream);
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

void DeviceJoinIndex::probe(const int64_t* keys, int64_t n, const exec::JoinProbeRequest& request,
                            const std::vector<const DeviceColumn*>& columns, DeviceMemoryPool& pool,
                            const Stream& stream, exec::JoinProbeResult& result,
                            PinnedPool* pinned) const {
  result = exec::JoinProbeResult{};
  if (n <= 0) return;
  const size_t rows = static_cast<size_t>(n);
  const bool one = unique_ || request.first_only;
  Index ix{direct_, heads_.as<int32_t>(), static_cast<int64_t>(heads_len_), slots_.as<Slot>(),
           mask_,   next_.as<int32_t>()};
  DeviceBuffer d_keys(rows * 8, pool, stream), d_firsts(rows * 4, pool, stream);
  DeviceBuffer d_counts(rows * 8, pool, stream), d_offsets(rows * 8, pool, stream);
  int64_t total = 0;
  {
    PinnedBlock stage(pinned, rows * 8, stream);
    if (stage.data() != nullptr) std::memcpy(stage.data(), keys, rows * 8);
    copy_to_device(d_keys.data(),
                   stage.data() != nullptr ? static_cast<const void*>(stage.data()) : keys,
                   rows * 8, stream);
    count_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(
        ix, d_keys.as<int64_t>(), n, one, d_firsts.as<int32_t>(), d_counts.as<int64_t>());
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
    total = last[0] + last[1];
  }
  if (total > 0x7fffffffLL)
    throw Unsupported("a probe batch with more than 2^31 - 1 join pairs is not probed on the GPU");
  if (total == 0) return;
  const size_t pairs = static_cast<size_t>(total);
  // At most one pair a row and as many pairs as rows: every row has its one pair, in order.
  result.probe_identity = one && total == n;
  DeviceBuffer d_probe(pairs * 4, pool, stream), d_build(pairs * 4, pool, stream);
  write_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(
      ix, d_firsts.as<int32_t>(), d_offsets.as<int64_t>(), n, one, d_probe.as<int32_t>(),
      d_build.as<int32_t>());
  EMBER_CUDA_CHECK_LAUNCH("write_kernel");
  Downloads downloads;
  std::vector<DeviceBuffer> keep;  // gathered columns until they are copied back
  bool host_gathers = false;       // a build column the caller gathers from the build rows
  if (request.gather_build) {
    result.build_columns.resize(columns.size());
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == nullptr)
        host_gathers = true;
      else
        result.build_columns[c] =
            gather_column(*columns[c], d_build.as<int32_t>(), total, pool, stream, downloads, keep);
    }
  }
  result.probe_rows.resize(pairs);
  if (result.probe_identity)
    std::iota(result.probe_rows.begin(), result.probe_rows.end(), 0);
  else
    downloads.add(result.probe_rows.data(), d_probe.data(), pairs * 4);
  if (host_gathers || request.need_build_rows) {
    result.build_rows.resize(pairs);
    downloads.add(result.build_rows.data(), d_build.data(), pairs * 4);
  }
  downloads.run(stream, pinned);
}

}  // namespace ember::gpu
