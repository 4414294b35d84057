#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__inline__ __device__ float warp_reduce_sum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__device__ float warp_allreduce_max(float v)
{
    for (int mask = 16; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, mask, 32));
    return v;
}

__device__ int warp_inclusive_scan(int v, int lane)
{
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}

__global__ void vote(const int *in, unsigned *ballots, int *flags)
{
    int v = in[threadIdx.x];
    int first = __shfl_sync(0xffffffff, v, 0);
    unsigned b = __ballot_sync(0xffffffff, v > first);
    unsigned active = __activemask();
    if (__any_sync(active, v < 0) && !__all_sync(active, v < 0))
        flags[threadIdx.x] = 1;
    __syncwarp();
    if ((threadIdx.x & 31) == 0)
        ballots[threadIdx.x / 32] = b;
    __syncwarp(active);
}
