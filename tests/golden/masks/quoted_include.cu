#include "warp_reduce.cuh"

// FULL_MASK (mask_defs.h, which its own port leaves as it is) is widened at
// the call; FINAL_MASK is widened in warp_reduce.cuh's port, and left here.
__global__ void reduce(float *data)
{
    float v = warp_reduce_sum(data[threadIdx.x]);
    v = __shfl_sync(FULL_MASK, v, 0);
    if (__all_sync(FINAL_MASK, v > 0.0f))
        data[threadIdx.x] = v;
}
