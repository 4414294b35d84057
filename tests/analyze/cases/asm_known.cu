// Only the PTX forms that have a HIP replacement: %laneid, scalar
// ld.global.nc loads, bar.sync 0 and the memory fences. After the fixes this
// file builds with hipcc.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned ptx_lane()
{
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane)); // expect: ASM-002
  return lane;
}

__device__ __forceinline__ float ldg_f32(const float *p)
{
  float v;
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)); // expect: ASM-003
  return v;
}

__device__ __forceinline__ int ldg_s32(const int *p)
{
  int v;
  asm("ld.global.nc.s32 %0, [%1];" : "=r"(v) : "l"(p)); // expect: ASM-003
  return v;
}

// Gather rows through the read-only path: y[r] = table[idx[r]] * scale.
__global__ void gather_scale(const float *__restrict__ table, const int *__restrict__ idx,
                             float *__restrict__ y, float scale, int rows, int cols)
{
  const int r = blockIdx.x;
  if (r >= rows) return;
  const int src = ldg_s32(idx + r);
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(size_t)r * cols + c] = ldg_f32(table + (size_t)src * cols + c) * scale;
}

// Block-wide sum: tree in shared memory with PTX barriers.
__global__ void block_sum(const float *__restrict__ x, float *__restrict__ partial, int n)
{
  __shared__ float buf[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? ldg_f32(x + i) : 0.0f;
  asm volatile("bar.sync 0;"); // expect: ASM-004
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    asm volatile("bar.sync 0;"); // expect: ASM-004
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
}

// Last-block-done pattern: write the partial, fence, take a ticket.
__global__ void finish_sum(const float *__restrict__ partial, float *total,
                           unsigned *ticket, int *flags, int blocks)
{
  const unsigned lane = ptx_lane();
  if (threadIdx.x == 0 && blockIdx.x < blocks) flags[blockIdx.x] = 1;
  asm volatile("membar.gl;"); // expect: ASM-004
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicInc(ticket, gridDim.x) == gridDim.x - 1;
  asm volatile("membar.cta;"); // expect: ASM-004
  __syncthreads();
  if (last && lane == 0 && threadIdx.x == 0) {
    float s = 0.0f;
    for (int b = 0; b < blocks; ++b) s += partial[b];
    *total = s;
    asm volatile("fence.acq_rel.gpu;"); // expect: ASM-004
  }
}
