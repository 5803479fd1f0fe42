// Device sort permutation: normalized keys and CUB's stable radix sort (see radix_sort.h).

#include <cuda_runtime.h>

#include <algorithm>
#include <cub/device/device_radix_sort.cuh>
#include <string>

#include "gpu/cuda_check.cuh"
#include "gpu/device.h"
#include "gpu/device_column.h"
#include "gpu/error.h"
#include "gpu/launch.cuh"
#include "gpu/memory.h"
#include "gpu/program.h"
#include "gpu/radix_sort.h"

namespace ember::gpu {
namespace {

__global__ void iota_kernel(int32_t* perm, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    perm[i] = static_cast<int32_t>(i);
}

/// The order-preserving bits of row `r` of a column of type `t`, in the low `width` bits.
__device__ __forceinline__ uint64_t order_bits(const void* data, VType t, int64_t r) {
  switch (t) {
    case VType::kBool:
      return (static_cast<const uint8_t*>(data)[r >> 3] >> (r & 7)) & 1;
    case VType::kI8:
      return static_cast<uint8_t>(static_cast<const int8_t*>(data)[r]) ^ 0x80u;
    case VType::kI16:
      return static_cast<uint16_t>(static_cast<const int16_t*>(data)[r]) ^ 0x8000u;
    case VType::kI32:
      return static_cast<uint32_t>(static_cast<const int32_t*>(data)[r]) ^ 0x80000000u;
    case VType::kI64:
      return static_cast<uint64_t>(static_cast<const int64_t*>(data)[r]) ^ 0x8000000000000000ULL;
    case VType::kF32: {
      float v = static_cast<const float*>(data)[r];
      uint32_t b = isnan(v) ? 0x7fc00000u : (v == 0.0f ? 0u : __float_as_uint(v));
      return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    }
    case VType::kF64: {
      double v = static_cast<const double*>(data)[r];
      uint64_t b = isnan(v) ? 0x7ff8000000000000ULL
                            : (v == 0.0 ? 0ULL : static_cast<uint64_t>(__double_as_longlong(v)));
      return (b & 0x8000000000000000ULL) ? ~b : (b | 0x8000000000000000ULL);
    }
    default:
      return 0;
  }
}

/// out[i] = the normalized key of row perm[i] (nulls: 0; their order comes from flags).
__global__ void normalize_kernel(const void* data, const uint8_t* validity, VType type,
                                 bool descending, uint64_t mask, const int32_t* perm, int64_t n,
                                 uint64_t* out) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t r = perm[i];
    if (validity != nullptr && !((validity[r >> 3] >> (r & 7)) & 1)) {
      out[i] = 0;
      continue;
    }
    uint64_t u = order_bits(data, type, r) & mask;
    out[i] = descending ? (~u & mask) : u;
  }
}

/// out[i] = 0 for rows that sort first (nulls when nulls come first), 1 for the others.
__global__ void null_flags_kernel(const uint8_t* validity, bool nulls_first, const int32_t* perm,
                                  int64_t n, uint8_t* out) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t r = perm[i];
    bool is_null = !((validity[r >> 3] >> (r & 7)) & 1);
    out[i] = is_null == nulls_first ? 0 : 1;
  }
}

int width_of(VType t) {
  switch (t) {
    case VType::kBool:
      return 1;
    case VType::kI8:
      return 8;
    case VType::kI16:
      return 16;
    case VType::kI32:
    case VType::kF32:
      return 32;
    default:
      return 64;
  }
}

}  // namespace

std::vector<int32_t> sort_permutation(const std::vector<SortColumn>& keys, int64_t rows,
                                      DeviceMemoryPool& pool, const Stream& stream) {
  if (rows > 0x7fffffffLL)
    throw Unsupported("sorting more than 2^31 - 1 rows on the GPU is not supported");
  std::vector<int32_t> result(static_cast<size_t>(rows));
  if (rows == 0) return result;
  const size_t n = static_cast<size_t>(rows);
  DeviceBuffer perm_a(n * 4, pool, stream), perm_b(n * 4, pool, stream);
  DeviceBuffer keys_a(n * 8, pool, stream), keys_b(n * 8, pool, stream);
  DeviceBuffer flags_a, flags_b;
  size_t temp_bytes = 0, flag_temp = 0;
  EMBER_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_a.as<uint64_t>(),
                                                   keys_b.as<uint64_t>(), perm_a.as<int32_t>(),
                                                   perm_b.as<int32_t>(), rows, 0, 64, raw(stream)));
  EMBER_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, flag_temp, static_cast<const uint8_t*>(nullptr), static_cast<uint8_t*>(nullptr),
      perm_a.as<int32_t>(), perm_b.as<int32_t>(), rows, 0, 1, raw(stream)));
  DeviceBuffer temp(std::max<size_t>({temp_bytes, flag_temp, 16}), pool, stream);
  size_t temp_size = temp.size();
  iota_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(perm_a.as<int32_t>(), rows);
  EMBER_CUDA_CHECK_LAUNCH("iota_kernel");
  for (size_t k = keys.size(); k-- > 0;) {
    const SortColumn& key = keys[k];
    const DataType& type = *key.column->type();
    if (type.id() == TypeId::kNull) continue;  // every row ties
    VType vt;
    if (!sortable_on_device(type) || !device_type(type, &vt))
      throw Unsupported("sorting by type " + type.simple_string() + " is not supported");
    DeviceColumn col = to_device(*key.column, pool, stream);
    const int width = width_of(vt);
    const uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
    normalize_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(
        col.data.data(), col.validity.as<uint8_t>(), vt, !key.ascending, mask, perm_a.as<int32_t>(),
        rows, keys_a.as<uint64_t>());
    EMBER_CUDA_CHECK_LAUNCH("normalize_kernel");
    temp_size = temp.size();
    EMBER_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        temp.data(), temp_size, keys_a.as<uint64_t>(), keys_b.as<uint64_t>(), perm_a.as<int32_t>(),
        perm_b.as<int32_t>(), rows, 0, width, raw(stream)));
    std::swap(perm_a, perm_b);
    if (col.validity) {
      if (!flags_a) {
        flags_a = DeviceBuffer(n, pool, stream);
        flags_b = DeviceBuffer(n, pool, stream);
      }
      null_flags_kernel<<<grid_for(rows), 256, 0, raw(stream)>>>(
          col.validity.as<uint8_t>(), key.nulls_first, perm_a.as<int32_t>(), rows,
          flags_a.as<uint8_t>());
      EMBER_CUDA_CHECK_LAUNCH("null_flags_kernel");
      temp_size = temp.size();
      EMBER_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          temp.data(), temp_size, flags_a.as<uint8_t>(), flags_b.as<uint8_t>(),
          perm_a.as<int32_t>(), perm_b.as<int32_t>(), rows, 0, 1, raw(stream)));
      std::swap(perm_a, perm_b);
    }
    // The column's buffers are freed on the stream, after the kernels that read them.
  }
  copy_to_host(result.data(), perm_a.data(), n * 4, stream);
  stream.synchronize();
  return result;
}

}  // namespace ember::gpu
