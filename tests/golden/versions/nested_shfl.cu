#include <cuda_runtime.h>

#define SHFL_DOWN(v, d) __shfl_down_sync(0xffffffff, (v), (d))

// Shuffles nested in shuffles and in macros: every level is rewritten.
__device__ int broadcast_partial(int v)
{
    int s = v + SHFL_DOWN(v, 1);
    return __shfl_sync(0xffffffff, __shfl_down_sync(0xffffffff, s, 2) + s, 0, 16);
}
