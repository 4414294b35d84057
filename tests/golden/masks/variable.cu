#include <cuda_runtime.h>

// A local mask variable: every use is a mask or a mask assigned back to it.
__global__ void group(const int *keys, unsigned long long *out)
{
    int key = keys[threadIdx.x];
    unsigned tmask = 0xFFFFFFFF;
    unsigned long long peers = __match_any_sync(tmask, key);
    tmask = __ballot_sync(tmask, key > 0);
    out[threadIdx.x] = peers + __shfl_sync(tmask, key, 0);
}
