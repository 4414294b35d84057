#pragma once

// Host/device portability macros keyed on the compiler and architecture.
#if defined(__CUDACC__)
#define HD __host__ __device__
#else
#define HD
#endif

#ifdef __CUDACC__
#include <cuda_runtime.h>
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define HAS_INDEPENDENT_THREAD_SCHEDULING 1
#endif

#if CUDART_VERSION >= 11000 && !defined(__CUDA_ARCH__)
#define HOST_ONLY_PATH 1
#endif

HD inline float square(float x) { return x * x; }
