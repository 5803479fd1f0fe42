#pragma once

// Marks functions that both host code and CUDA kernels call (one definition for both).
#if defined(__CUDACC__)
#define EMBER_HOST_DEVICE __host__ __device__
#else
#define EMBER_HOST_DEVICE
#endif
