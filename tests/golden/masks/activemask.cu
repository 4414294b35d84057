#include <cuda_runtime.h>
#include <cstdint>

// On HIP __activemask() and __ballot_sync() return 64 bits: a 32-bit
// variable holding them becomes 64-bit when it is used only as a mask.
__global__ void leaders(const int *in, int *out)
{
    int v = in[threadIdx.x];
    if (v > 0) {
        unsigned m = __activemask();
        v = __shfl_sync(m, v, 0);
        uint32_t b = __ballot_sync(m, v > 1);
        v += __shfl_down_sync(b, v, 1);
    }
    out[threadIdx.x] = v;
}
