#include "gpu/device.h"

#include <mutex>

namespace ember::gpu {

double DeviceInfo::peak_bandwidth() const {
  // Double data rate: two transfers per clock over the bus.
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0);
}

const DeviceInfo& device_info() {
  static std::once_flag once;
  static DeviceInfo* info = nullptr;
  std::call_once(once, [] { info = new DeviceInfo(probe_device()); });
  return *info;
}

// With CUDA, probe_device() is defined in device_probe.cu instead.
#if !defined(EMBER_WITH_CUDA)

std::string build_summary() { return "built without CUDA"; }

DeviceInfo probe_device() {
  DeviceInfo info;
  info.available = false;
  info.reason = "built without CUDA";
  return info;
}

#endif  // !defined(EMBER_WITH_CUDA)

}  // namespace ember::gpu
