#include <cuda_runtime.h>
#include <cstdint>

const unsigned FULL_MASK = 0xffffffffu;
static const unsigned int kAllLanes = 0xFFFFFFFF;
constexpr uint32_t kMask = ~0u;

__device__ float warp_sum(float v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(FULL_MASK, v, d);
    return __shfl_sync(kAllLanes, v, 0);
}

__global__ void scan(const int *in, int *out)
{
    int v = in[threadIdx.x];
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(kMask, v, d);
        if ((threadIdx.x & 31) >= d)
            v += up;
    }
    out[threadIdx.x] = v + (int)warp_sum((float)v);
}
