#include <cuda_runtime.h>

__inline__ __device__ float warp_reduce_sum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__device__ float half_warp_max(float v)
{
    for (int mask = 8; mask > 0; mask >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0x0000ffff, v, mask, 16));
    return v;
}

__device__ int scan_step(int v, int d) { return __shfl_up_sync(0xFFFFFFFFu, v, d); }

__global__ void vote(const int *in, unsigned long long *ballots, int *flags)
{
    int v = in[threadIdx.x];
    int first = __shfl_sync(0xffffffff, v, 0);
    unsigned long long b = __ballot_sync(0xffffffff, v > first);
    unsigned long long active = __activemask();
    if (__any_sync(active, v < 0) && !__all_sync(0xFFFFFFFF, v < 0))
        flags[threadIdx.x] = 1;
    __syncwarp();
    ballots[threadIdx.x] = b;
}

// All-ones masks written as expressions, in macros as vLLM writes them.
#define SHFL_XOR_SYNC(var, lane_mask) __shfl_xor_sync(uint32_t(-1), var, lane_mask)
#define SHFL_SYNC(var, src) __shfl_sync((unsigned)-1, var, src)
__device__ int all_ones(int v) { return __shfl_down_sync(~0u, v, 1) + __shfl_up_sync(static_cast<uint32_t>(-1), v, 1); }
// Not all ones: left as written (WARP-006 reports a 32-bit mask there).
__device__ int some(int v) { return __shfl_down_sync(uint32_t(-1) >> 16, v, 1); }
