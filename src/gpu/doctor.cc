// `ember doctor`'s GPU section.

#include <cstdio>
#include <string>

#include "gpu/device.h"
#include "gpu/runtime.h"

namespace ember::gpu {
namespace {

std::string gib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

std::string version(int v) {
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

/// What a user can do about a reason the probe gave.
std::string advice(const DeviceInfo& info) {
  const std::string& r = info.reason;
  if (r.find("built without CUDA") != std::string::npos)
    return "rebuild with a CUDA compiler available (make build finds nvcc or installs the CUDA "
           "compiler wheels)";
  if (r.find("driver") != std::string::npos)
    return "install or update the NVIDIA driver (it must support CUDA " +
           version(info.runtime_version) + ")";
  if (r.find("no CUDA device") != std::string::npos)
    return "check that the machine has an NVIDIA GPU and that CUDA_VISIBLE_DEVICES does not hide "
           "it";
  if (r.find("architecture") != std::string::npos)
    return "rebuild with -DEMBER_CUDA_ARCHITECTURES including this GPU's compute capability";
  if (r.find("free") != std::string::npos)
    return "free GPU memory held by other processes (see nvidia-smi)";
  return "see the CUDA error above";
}

}  // namespace

std::string doctor_report() {
  const DeviceInfo& info = device_info();
  std::string out = "GPU\n";
  out += "  build:   " + build_summary() + "\n";
  if (info.driver_version > 0)
    out += "  driver:  supports CUDA " + version(info.driver_version) + "\n";
  if (!info.name.empty()) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "  device:  %s, compute capability %d.%d, %d multiprocessors, %s memory (%s "
                  "free), L2 %zu MiB\n",
                  info.name.c_str(), info.major, info.minor, info.multiprocessors,
                  gib(info.total_memory).c_str(), gib(info.free_memory).c_str(),
                  info.l2_cache_bytes >> 20);
    out += line;
    if (info.peak_bandwidth() > 0) {
      std::snprintf(line, sizeof line,
                    "           memory bus %d bits, theoretical bandwidth %.2f TB/s, PCI %s\n",
                    info.memory_bus_bits, info.peak_bandwidth() / 1e12, info.pci_bus_id.c_str());
      out += line;
    }
  }
  std::string unavailable = Runtime::unavailable_reason();
  if (unavailable.empty()) {
    out +=
        "  status:  usable; operators that support it run on the GPU "
        "(spark.rapids.sql.enabled=true)\n";
  } else {
    out += "  status:  not usable: " + unavailable + "\n";
    out += "  fix:     " + advice(info) + "; until then queries run on the CPU\n";
  }
  if (Runtime* rt = Runtime::started()) {
    DeviceMemoryPool& pool = rt->device_pool();
    out += "  pools:   device " + gib(static_cast<size_t>(pool.used())) + " in use of " +
           gib(static_cast<size_t>(pool.limit())) + " (peak " +
           gib(static_cast<size_t>(pool.peak())) + "), pinned staging " +
           gib(rt->pinned_pool().used()) + " of " + gib(rt->pinned_pool().capacity()) +
           ", tasks on the GPU " + std::to_string(rt->semaphore().active()) + "\n";
  }
  return out;
}

}  // namespace ember::gpu
