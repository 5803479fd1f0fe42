#include "gpu/error.h"

namespace ember::gpu {

GpuOutOfMemory::GpuOutOfMemory(size_t requested, const std::string& detail)
    : SparkError(ErrorKind::kRuntime, "UNABLE_TO_ACQUIRE_MEMORY",
                 "Unable to acquire " + std::to_string(requested) +
                     " bytes of GPU memory, got 0 (" + detail + ")."),
      requested_(requested) {}

GpuError::GpuError(std::string call, std::string error_name, std::string error_text, bool sticky)
    : SparkError(ErrorKind::kInternal, "INTERNAL_ERROR",
                 "GPU operation failed: " + call + " returned " + error_name + " (" + error_text +
                     ")" + (sticky ? "; the GPU is disabled for the rest of this process." : ".")),
      call_(std::move(call)),
      sticky_(sticky) {}

}  // namespace ember::gpu
