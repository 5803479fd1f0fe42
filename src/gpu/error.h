#pragma once

#include <cstddef>
#include <string>

#include "common/error.h"

namespace ember::gpu {

/// The device could not supply memory: raised by the device pool when its limit (from
/// spark.rapids.memory.gpu.allocFraction) or the device itself is exhausted. GPU operators catch
/// it to split their input and retry, and finally to fall back to the CPU; it reaches the user
/// only when every fallback failed.
class GpuOutOfMemory : public SparkError {
 public:
  GpuOutOfMemory(size_t requested, const std::string& detail);
  size_t requested() const { return requested_; }

 private:
  size_t requested_;
};

/// A CUDA call failed for another reason. `sticky` errors (an illegal address, a failed launch)
/// leave the CUDA context unusable: the runtime then disables the GPU for the rest of the
/// process, and queries run on the CPU.
class GpuError : public SparkError {
 public:
  GpuError(std::string call, std::string error_name, std::string error_text, bool sticky);
  bool sticky() const { return sticky_; }
  const std::string& call() const { return call_; }

 private:
  std::string call_;
  bool sticky_;
};

}  // namespace ember::gpu
