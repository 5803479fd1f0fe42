#include <cuda_runtime_api.h>

#include <string>

#include "gpu/device.h"

namespace ember::gpu {
namespace {

/// Turns a failed CUDA call into a reason a user can act on.
std::string describe_failure(const char* call, cudaError_t error) {
  std::string reason;
  switch (error) {
    case cudaErrorNoDevice:
      reason = "no CUDA device is visible";
      break;
    case cudaErrorInsufficientDriver:
      reason = "no NVIDIA driver is loaded, or it is older than this build's CUDA runtime (" +
               std::to_string(CUDART_VERSION / 1000) + "." +
               std::to_string(CUDART_VERSION % 1000 / 10) + ")";
      break;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
      reason = "this build carries no GPU code for the device's architecture";
      break;
    default:
      reason = "CUDA error";
      break;
  }
  reason += " [";
  reason += call;
  reason += ": ";
  reason += cudaGetErrorName(error);
  reason += ": ";
  reason += cudaGetErrorString(error);
  reason += "]";
  return reason;
}

/// Present only so that the probe can ask whether the build's code runs on the device.
__global__ void probe_kernel(int* out) {
  if (out != nullptr) *out = 1;
}

std::string mib(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

#define EMBER_STRINGIFY2(...) #__VA_ARGS__
#define EMBER_STRINGIFY(...) EMBER_STRINGIFY2(__VA_ARGS__)

std::string build_summary() {
  std::string s = "CUDA runtime " + std::to_string(CUDART_VERSION / 1000) + "." +
                  std::to_string(CUDART_VERSION % 1000 / 10);
#if defined(__CUDA_ARCH_LIST__)
  // e.g. "800,860,890,900": SASS for each, PTX for the last.
  s += ", code for compute capabilities " EMBER_STRINGIFY(__CUDA_ARCH_LIST__);
#endif
  return s;
}

DeviceInfo probe_device() {
  DeviceInfo info;
  cudaRuntimeGetVersion(&info.runtime_version);
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    info.reason = describe_failure("cudaGetDeviceCount", error);
    // Clear the sticky per-thread error so later CUDA calls start clean.
    (void)cudaGetLastError();
    return info;
  }
  if (count == 0) {
    info.reason = "no CUDA device is visible";
    return info;
  }
  cudaDriverGetVersion(&info.driver_version);
  cudaDeviceProp props{};
  error = cudaGetDeviceProperties(&props, 0);
  if (error != cudaSuccess) {
    info.reason = describe_failure("cudaGetDeviceProperties", error);
    (void)cudaGetLastError();
    return info;
  }
  info.name = props.name;
  info.major = props.major;
  info.minor = props.minor;
  info.total_memory = props.totalGlobalMem;
  info.multiprocessors = props.multiProcessorCount;
  info.memory_bus_bits = props.memoryBusWidth;
  info.l2_cache_bytes = static_cast<size_t>(props.l2CacheSize);
  info.shared_memory_per_block = props.sharedMemPerBlockOptin;
  int value = 0;
  if (cudaDeviceGetAttribute(&value, cudaDevAttrMemoryClockRate, 0) == cudaSuccess)
    info.memory_clock_khz = value;
  if (cudaDeviceGetAttribute(&value, cudaDevAttrMemoryPoolsSupported, 0) == cudaSuccess)
    info.memory_pools = value != 0;
  (void)cudaGetLastError();
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess) info.pci_bus_id = bus;

  cudaFuncAttributes attributes{};
  error = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (error != cudaSuccess) {
    info.reason = describe_failure("cudaFuncGetAttributes", error);
    (void)cudaGetLastError();
    return info;
  }
  size_t free_bytes = 0, total_bytes = 0;
  error = cudaMemGetInfo(&free_bytes, &total_bytes);
  if (error != cudaSuccess) {
    info.reason = describe_failure("cudaMemGetInfo", error);
    (void)cudaGetLastError();
    return info;
  }
  info.free_memory = free_bytes;
  if (free_bytes < kMinimumFreeMemory) {
    info.reason = "only " + mib(free_bytes) + " of the device's " + mib(total_bytes) +
                  " are free; Ember needs at least " + mib(kMinimumFreeMemory);
    return info;
  }
  info.available = true;
  return info;
}

}  // namespace ember::gpu
