// Architecture-dependent code: __CUDA_ARCH__ guards and version checks,
// launch bounds with a minimum block count, large shared memory.
#include <cuda_runtime.h>
#include <cstdio>

__host__ __device__ inline void report_error(const char *what, int code)
{
#ifdef __CUDA_ARCH__ /* expect: ARCH-001 */
  printf("device error: %s (%d) in block %d\n", what, code, (int)blockIdx.x);
#else
  fprintf(stderr, "host error: %s (%d)\n", what, code);
#endif
}

__host__ __device__ inline float clamp01(float v)
{
#if defined(__CUDA_ARCH__) /* expect: ARCH-001 */
  return fminf(fmaxf(v, 0.0f), 1.0f);
#else
  return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
#endif
}

// Streaming load: cache-bypassing on newer GPUs, plain load elsewhere.
__device__ inline float load_streaming(const float *p)
{
#if __CUDA_ARCH__ >= 800 /* expect: ARCH-001 */
  return __ldcs(p);
#elif __CUDA_ARCH__ >= 350 /* expect: ARCH-001 */
  return __ldg(p);
#else
  return *p;
#endif // __CUDA_ARCH__
}

#ifndef __CUDA_ARCH__ /* expect: ARCH-001 */
static int device_count_or_zero()
{
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
#endif

// Occupancy hints: two blocks of 256 threads per SM.
__global__ void __launch_bounds__(256, 2) gemv_rows(const float *__restrict__ a, // expect: ARCH-003
                                                    const float *__restrict__ x,
                                                    float *__restrict__ y, int rows, int cols)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += a[(size_t)r * cols + c] * load_streaming(x + c);
  y[r] = s;
}

constexpr int kThreads = 128;
constexpr int kMinBlocks = 4;

__global__ void __launch_bounds__(kThreads, kMinBlocks) scale_rows(float *v, float s, int n) // expect: ARCH-003
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = clamp01(v[i] * s);
}

__global__ void __launch_bounds__(256) axpy(float a, const float *x, float *y, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Static shared memory: one 80 KiB staging buffer (a template that this file
// does not instantiate; ptxas caps static shared memory at 48 KiB).
template <typename T>
__global__ void stage_rows(const T *__restrict__ in, T *__restrict__ out, int n)
{
  __shared__ float stage[20480]; // expect: ARCH-004
  for (int i = threadIdx.x; i < 20480 && i < n; i += blockDim.x) stage[i] = (float)in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < 20480 && i < n; i += blockDim.x) out[i] = (T)stage[20479 - i];
}

// Register-blocked GEMM: two 64x64 tiles of 16 KiB (32 KiB in all, under the
// limit), 16x16 threads computing 4x4 outputs each.
__global__ void tiled_gemm_64(const float *__restrict__ A, const float *__restrict__ B,
                              float *__restrict__ C, int n)
{
  __shared__ float As[64][64];
  __shared__ float Bs[64][64];
  const int tx = threadIdx.x, ty = threadIdx.y;
  float acc[4][4] = {};
  for (int t = 0; t < n; t += 64) {
    for (int i = ty; i < 64; i += 16)
      for (int j = tx; j < 64; j += 16) {
        As[i][j] = A[(size_t)(blockIdx.y * 64 + i) * n + t + j];
        Bs[i][j] = B[(size_t)(t + i) * n + blockIdx.x * 64 + j];
      }
    __syncthreads();
    for (int k = 0; k < 64; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[ty * 4 + i][k] * Bs[k][tx * 4 + j];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(size_t)(blockIdx.y * 64 + ty * 4 + i) * n + blockIdx.x * 64 + tx * 4 + j] = acc[i][j];
}

// Attention tile kernel with dynamic shared memory.
__global__ void attention_tile(const float *__restrict__ q, const float *__restrict__ kv,
                               float *__restrict__ o, int len)
{
  extern __shared__ float smem[];
  for (int i = threadIdx.x; i < len; i += blockDim.x) smem[i] = kv[(size_t)blockIdx.x * len + i];
  __syncthreads();
  float acc = 0.0f;
  for (int i = 0; i < len; ++i) acc += q[threadIdx.x] * smem[i];
  o[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void launch_attention(const float *q, const float *kv, float *o, int blocks, size_t smem_bytes,
                      cudaStream_t stream)
{
  cudaFuncSetAttribute(attention_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304); // expect: ARCH-004
  attention_tile<<<blocks, 256, 98304, stream>>>(q, kv, o, 24576); // expect: ARCH-004
  attention_tile<<<blocks, 256, smem_bytes, stream>>>(q, kv, o, (int)(smem_bytes / sizeof(float)));
}

void launch_attention_small(const float *q, const float *kv, float *o, int blocks,
                            cudaStream_t stream)
{
  cudaFuncSetAttribute(attention_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152);
  attention_tile<<<blocks, 256, 32768, stream>>>(q, kv, o, 8192);
#ifndef __CUDA_ARCH__ /* expect: ARCH-001 */
  if (device_count_or_zero() == 0) report_error("no device", 0);
#endif
}
