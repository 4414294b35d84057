#include <cuda_runtime.h>

// A mask macro used only as the mask of _sync calls: widened where it is defined.
#define MASK 0xffffffff

__global__ void reduce(const float *in, float *out, int *flags)
{
    float v = in[threadIdx.x];
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(MASK, v, m);
    if (__any_sync(MASK, v < 0.0f))
        flags[blockIdx.x] = 1;
    out[threadIdx.x] = v;
}
