// Helpers shared by the fastops kernels and host code.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define WARP_SIZE 32

// Abort with the failing expression and location.  Kernel launches are
// checked with CUDA_CHECK(cudaGetLastError()) right after the launch.
#define CUDA_CHECK(expr)                                                      \
  do {                                                                        \
    const cudaError_t err_ = (expr);                                          \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,      \
                   #expr, cudaGetErrorString(err_));                          \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

// Only usable in files that include <cublas_v2.h>.
#define CUBLAS_CHECK(expr)                                                    \
  do {                                                                        \
    const cublasStatus_t st_ = (expr);                                        \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                       \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,      \
                   #expr, cublasGetStatusString(st_));                        \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

namespace fastops {

template <typename T>
__host__ __device__ constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

// Number of blocks for a grid-stride loop over n elements: enough to cover n,
// capped so that large inputs reuse threads instead of launching huge grids.
inline int grid_size(int64_t n, int block, int max_blocks = 4096) {
  const int64_t blocks = ceil_div<int64_t>(n, block);
  return static_cast<int>(blocks < max_blocks ? blocks : max_blocks);
}

}  // namespace fastops
