#include <cuda_runtime.h>

// Before HIP 6.2 the calls lose their mask: the macro is left as it is.
#define MASK 0xffffffff

__global__ void reduce(float *data)
{
    float v = data[threadIdx.x];
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(MASK, v, m);
    data[threadIdx.x] = v;
}
