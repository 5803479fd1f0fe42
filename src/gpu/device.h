#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ember::gpu {

/// What the process can see of the GPU it would use (device 0).
///
/// `available` is false when the build has no CUDA, when no driver is loaded, when no device is
/// visible, when the device is older than the code this build carries, or when too little of
/// its memory is free; `reason` then says which, in words meant for `ember doctor` and for the
/// fallback reasons that `explain` shows. The device fields are filled whenever a device was
/// found, even if it is not usable.
struct DeviceInfo {
  bool available = false;
  std::string name;
  std::string reason;
  int major = 0;
  int minor = 0;
  size_t total_memory = 0;
  size_t free_memory = 0;
  int multiprocessors = 0;
  int driver_version = 0;   // e.g. 13000 for CUDA 13.0
  int runtime_version = 0;  // the CUDA runtime this build links
  int memory_bus_bits = 0;
  int memory_clock_khz = 0;
  size_t l2_cache_bytes = 0;
  size_t shared_memory_per_block = 0;  // opt-in maximum
  bool memory_pools = false;           // cudaMallocAsync is supported
  std::string pci_bus_id;

  /// Theoretical memory bandwidth from the bus width and clock (bytes/s; 0 when unknown).
  double peak_bandwidth() const;
};

/// The least free device memory a device must have to be used.
constexpr size_t kMinimumFreeMemory = size_t{256} << 20;

/// Probes the first CUDA device. Never throws and never aborts: every failure becomes
/// `available == false` with a reason.
DeviceInfo probe_device();

/// The probe's result for this process, taken once (thread-safe).
const DeviceInfo& device_info();

/// The CUDA support compiled into this binary: runtime version and GPU architectures, or
/// "built without CUDA".
std::string build_summary();

/// Text for `ember doctor`: the build's CUDA support, the device and its state, the GPU
/// runtime's pools once it is running, and what to do when the GPU cannot be used.
std::string doctor_report();

}  // namespace ember::gpu
