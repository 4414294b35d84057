// args: --target-hip=6.2
// hipcc-args: -include CASES_DIR/hip62_sync.h
// Full lane masks kept in 32-bit variables: HIP 6.2 and newer keep the mask
// argument of the _sync intrinsics and require it to be 64 bits wide.
#include <cuda_runtime.h>

__device__ float warp_max(float v)
{
  unsigned full = 0xffffffff; // expect: WARP-006
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_xor_sync(full, v, offset));
  return v;
}

__device__ float broadcast_lane0(float v)
{
  const unsigned all_lanes = ~0u; // expect: WARP-006
  return __shfl_sync(all_lanes, v, 0);
}

// Already 64 bits wide: nothing to say.
__device__ int count_votes(bool p)
{
  const unsigned long long everyone = 0xffffffffffffffffull;
  return __popcll(__ballot_sync(everyone, p));
}

// A mask that is not the full one: reported, fixed by hand.
__device__ float half_warp_sum(float v, unsigned long long lower_half)
{
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_down_sync(lower_half, v, offset, 16);
  return v;
}

#ifndef __HIP__ // seen by the analyzer, not built: it needs the hand fix
__device__ float half_warp_sum_32(float v, unsigned lower_half)
{
  for (int offset = 8; offset > 0; offset /= 2)
    v += __shfl_down_sync(lower_half, v, offset, 16); // expect: WARP-006
  return v;
}
#endif

__global__ void reduce(const float *in, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_max(v);
  v = broadcast_lane0(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v + count_votes(v > 0.0f);
}

// All-ones masks written as expressions: the port widens them itself.
__device__ float all_ones_expressions(float v)
{
  v += __shfl_xor_sync(uint32_t(-1), v, 1);
  v += __shfl_xor_sync((unsigned)-1, v, 2);
  return v + __shfl_down_sync(~0u, v, 4);
}

