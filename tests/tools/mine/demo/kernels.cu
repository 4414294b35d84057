// A dual-platform file written for the mine-rocm test: one CUDA source,
// ROCm branches where hipify was not enough.
#include <cuda_runtime.h>
#ifdef USE_ROCM
#include <hip/hip_bf16.h>
#else
#include <cuda_bf16.h>
#endif

#if defined(USE_ROCM)
#define WARP 64
#else
#define WARP_SIZE 32
#endif

__device__ float warp_sum(float v) {
#ifndef USE_ROCM
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
#else
  for (int o = 32; o > 0; o >>= 1) v += __shfl_xor(v, o);
#endif
  return v;
}

__global__ void
#ifdef USE_ROCM
__launch_bounds__(1024)
#endif
big_kernel(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(USE_ROCM) && ROCM_VERSION >= 60000
  if (i < n) out[i] = 1.0f / sqrtf(in[i]);
#else
  if (i < n) out[i] = rsqrtf(in[i]);
#endif
}

#if !defined(USE_ROCM) && defined(SOMETHING_ELSE)
int both_sides_unknown;
#endif

#if defined(__HIP_PLATFORM_NVIDIA__)
int neither_side;
#endif

#if __CUDA_ARCH__ >= 800
int not_rocm_decided;
#endif

#ifdef USE_ROCM
#if ROCM_VERSION >= 50000
int nested_in_rocm_only;
#endif
#endif
