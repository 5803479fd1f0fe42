// The GPU runtime: error translation, streams, the device pool, the pinned pool, copies and the
// process-wide Runtime.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "gpu/cuda_check.cuh"
#include "gpu/error.h"
#include "gpu/fused_aggregate.h"
#include "gpu/rand_jump.h"
#include "gpu/runtime.h"

namespace ember::gpu {

namespace detail {

namespace {
bool is_sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}
}  // namespace

void raise_cuda_error(cudaError_t error, const char* call, const char* file, int line) {
  std::string where = std::string(call) + " at " + file + ":" + std::to_string(line);
  // Clears the error unless it is sticky (then every later call fails the same way).
  (void)cudaGetLastError();
  if (error == cudaErrorMemoryAllocation)
    throw GpuOutOfMemory(0, "the device is out of memory in " + where);
  bool sticky = is_sticky(error);
  GpuError e(where, cudaGetErrorName(error), cudaGetErrorString(error), sticky);
  if (sticky)
    Runtime::disable(std::string("an unrecoverable CUDA error occurred (") +
                     cudaGetErrorName(error) + " in " + where + ")");
  throw e;
}

}  // namespace detail

// ---- Stream ----------------------------------------------------------------------------------

Stream::Stream() {
  cudaStream_t s = nullptr;
  EMBER_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  handle_ = s;
}

Stream::~Stream() {
  if (handle_ != nullptr) {
    (void)cudaStreamSynchronize(static_cast<cudaStream_t>(handle_));
    (void)cudaStreamDestroy(static_cast<cudaStream_t>(handle_));
    (void)cudaGetLastError();
  }
}

void Stream::synchronize() const {
  EMBER_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(handle_)));
}

// ---- Device pool -----------------------------------------------------------------------------

namespace {

/// The CUDA memory pool allocations come from (null: plain cudaMalloc).
cudaMemPool_t g_cuda_pool = nullptr;
bool g_use_async = false;

}  // namespace

namespace {
size_t round_up_256(size_t n) { return (std::max<size_t>(n, 1) + 255) / 256 * 256; }
}  // namespace

void* DeviceMemoryPool::allocate(size_t bytes, const Stream& stream) {
  size_t n = round_up_256(bytes);
  reserve(static_cast<int64_t>(n));
  void* p = nullptr;
  cudaError_t e = g_use_async ? cudaMallocFromPoolAsync(&p, n, g_cuda_pool,
                                                        static_cast<cudaStream_t>(stream.handle()))
                              : cudaMalloc(&p, n);
  if (e != cudaSuccess) {
    release(static_cast<int64_t>(n));
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw GpuOutOfMemory(n, "the device could not supply it");
    }
    detail::raise_cuda_error(e, "cudaMallocAsync", __FILE__, __LINE__);
  }
  return p;
}

void DeviceMemoryPool::free(void* p, size_t bytes, const Stream& stream) {
  if (p == nullptr) return;
  cudaError_t e =
      g_use_async ? cudaFreeAsync(p, static_cast<cudaStream_t>(stream.handle())) : cudaFree(p);
  release(static_cast<int64_t>(round_up_256(bytes)));
  // A failed free leaks; it is reported only through the next checked call.
  if (e != cudaSuccess) (void)cudaGetLastError();
}

// ---- Pinned pool -----------------------------------------------------------------------------

namespace detail {

void* alloc_pinned(size_t bytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, bytes, cudaHostAllocDefault) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

void free_pinned(void* p) {
  if (p == nullptr) return;
  (void)cudaFreeHost(p);
  (void)cudaGetLastError();
}

}  // namespace detail

// ---- Copies ----------------------------------------------------------------------------------

void copy_to_device(void* dst, const void* src, size_t bytes, const Stream& stream) {
  if (bytes == 0) return;
  EMBER_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                                   static_cast<cudaStream_t>(stream.handle())));
}

void copy_to_host(void* dst, const void* src, size_t bytes, const Stream& stream) {
  if (bytes == 0) return;
  EMBER_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost,
                                   static_cast<cudaStream_t>(stream.handle())));
}

void fill_device(void* dst, int byte, size_t bytes, const Stream& stream) {
  if (bytes == 0) return;
  EMBER_CUDA_CHECK(cudaMemsetAsync(dst, byte, bytes, static_cast<cudaStream_t>(stream.handle())));
}

// ---- Runtime ---------------------------------------------------------------------------------

namespace {
std::mutex g_runtime_mu;
Runtime* g_runtime = nullptr;
// Separate from g_runtime_mu: a sticky error while the runtime starts disables it from inside
// Runtime::get.
std::mutex g_disabled_mu;
std::string g_disabled;  // reason, once disabled

std::string disabled_reason() {
  std::lock_guard<std::mutex> lock(g_disabled_mu);
  return g_disabled;
}
}  // namespace

Runtime::Runtime(const GpuSettings& settings) {
  const DeviceInfo& info = device_info();
  EMBER_CUDA_CHECK(cudaSetDevice(0));
  size_t free_bytes = 0, total_bytes = 0;
  EMBER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  int64_t limit = static_cast<int64_t>(settings.alloc_fraction * static_cast<double>(free_bytes)) -
                  settings.reserve_bytes;
  if (limit < static_cast<int64_t>(kMinimumFreeMemory))
    limit = static_cast<int64_t>(kMinimumFreeMemory);
  if (info.memory_pools) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    EMBER_CUDA_CHECK(cudaMemPoolCreate(&g_cuda_pool, &props));
    // Keep freed memory in the pool up to the limit instead of returning it at each sync.
    uint64_t threshold = static_cast<uint64_t>(limit);
    EMBER_CUDA_CHECK(
        cudaMemPoolSetAttribute(g_cuda_pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    g_use_async = true;
  }
  stream_ = std::make_unique<Stream>();
  device_pool_ = std::make_unique<DeviceMemoryPool>("gpu", nullptr, limit);
  pinned_pool_ = std::make_unique<PinnedPool>(
      static_cast<size_t>(std::max<int64_t>(settings.pinned_pool_bytes, 0)));
  std::vector<uint64_t> tables = xorshift_jump_tables(kRandStrideSteps);
  jump_tables_ = DeviceBuffer(tables.size() * sizeof(uint64_t), *device_pool_, *stream_);
  copy_to_device(jump_tables_.data(), tables.data(), tables.size() * sizeof(uint64_t), *stream_);
  stream_->synchronize();
}

Runtime* Runtime::get(const GpuSettings& settings) {
  std::lock_guard<std::mutex> lock(g_runtime_mu);
  if (!disabled_reason().empty()) return nullptr;
  if (g_runtime != nullptr) return g_runtime;
  if (!device_info().available) return nullptr;
  try {
    g_runtime = new Runtime(settings);
  } catch (const SparkError& e) {
    disable("the GPU runtime could not start: " + e.message());
    return nullptr;
  }
  return g_runtime;
}

Runtime* Runtime::started() {
  std::lock_guard<std::mutex> lock(g_runtime_mu);
  return disabled_reason().empty() ? g_runtime : nullptr;
}

std::string Runtime::unavailable_reason() {
  std::string disabled = disabled_reason();
  if (!disabled.empty()) return disabled;
  const DeviceInfo& info = device_info();
  return info.available ? "" : info.reason;
}

void Runtime::disable(const std::string& reason) {
  std::lock_guard<std::mutex> lock(g_disabled_mu);
  if (g_disabled.empty()) g_disabled = reason;
}

}  // namespace ember::gpu
