// Inline PTX as hand-tuned kernels carry it: special registers, cache-hinted
// loads, barriers and fences, and PTX with no HIP counterpart.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ unsigned lane_id()
{
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane)); // expect: ASM-002
  return lane;
}

__device__ __forceinline__ unsigned sm_id()
{
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id)); // expect: ASM-001
  return id;
}

__device__ __forceinline__ float load_nc(const float *p)
{
  float v;
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)); // expect: ASM-003
  return v;
}

// Byte permute, used to repack int8 activations.
__device__ __forceinline__ uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t sel)
{
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel)); // expect: ASM-001
  return r;
}

// Two floats to a packed half2 in one instruction (sm_80).
__device__ __forceinline__ uint32_t pack_half2(float lo, float hi)
{
  uint32_t r;
  asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(r) : "f"(lo), "f"(hi)); // expect: ASM-001
  return r;
}

// Warp vote written in PTX, over several lines.
__device__ __forceinline__ uint32_t ballot_ptx(int pred)
{
  uint32_t ballot;
  asm volatile( // expect: ASM-001
      "{\n\t"
      ".reg .pred p;\n\t"
      "setp.ne.b32 p, %1, 0;\n\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
      "}"
      : "=r"(ballot)
      : "r"(pred));
  return ballot;
}

// Fire-and-forget float reduction to global memory.
__device__ __forceinline__ void red_add(float *addr, float v)
{
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(addr), "f"(v) : "memory"); // expect: ASM-001
}

// Two-phase block kernel: stage through shared memory with a PTX barrier,
// publish with a PTX fence.
__global__ void stage_and_publish(const float *__restrict__ in, float *out, int *ready, int n)
{
  __shared__ float stage[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? load_nc(in + i) : 0.0f;
  asm volatile("bar.sync 0;"); // expect: ASM-004
  const float v = stage[(threadIdx.x + 1) % blockDim.x];
  if (i < n) out[i] = v;
  asm volatile("membar.gl;" ::: "memory"); // expect: ASM-004
  if (threadIdx.x == 0) atomicExch(&ready[blockIdx.x], 1);
}

__global__ void lane_stats(const int *__restrict__ pred, float *sums, uint32_t *ballots,
                           unsigned *where, uint32_t *packed, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int p = i < n ? pred[i] : 0;
  const uint32_t b = ballot_ptx(p);
  const unsigned lane = lane_id();
  if (lane == 0) {
    ballots[blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize] = b;
    where[blockIdx.x] = sm_id();
  }
  if (i < n) {
    red_add(&sums[blockIdx.x], (float)p);
    packed[i] = byte_perm(pack_half2((float)p, 1.0f), (uint32_t)p, 0x5410u);
  }
  asm volatile("membar.cta;"); // expect: ASM-004
  asm volatile("fence.acq_rel.gpu;"); // expect: ASM-004
}
