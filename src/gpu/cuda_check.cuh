#pragma once

// Checking of CUDA calls, for .cu files only. Every runtime call and every launch goes through
// EMBER_CUDA_CHECK: a failure becomes a GpuOutOfMemory or GpuError (never an abort), and a
// sticky error disables the GPU runtime for the rest of the process.

#include <cuda_runtime_api.h>

namespace ember::gpu::detail {

[[noreturn]] void raise_cuda_error(cudaError_t error, const char* call, const char* file, int line);

}  // namespace ember::gpu::detail

#define EMBER_CUDA_CHECK(call)                                                              \
  do {                                                                                      \
    cudaError_t ember_cuda_error_ = (call);                                                 \
    if (ember_cuda_error_ != cudaSuccess)                                                   \
      ::ember::gpu::detail::raise_cuda_error(ember_cuda_error_, #call, __FILE__, __LINE__); \
  } while (0)

/// After a kernel launch: reports launch errors (bad configuration, missing image).
#define EMBER_CUDA_CHECK_LAUNCH(kernel_name) EMBER_CUDA_CHECK(cudaPeekAtLastError())
