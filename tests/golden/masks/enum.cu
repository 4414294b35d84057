#include <cuda_runtime.h>

// An enum constant stays as it is (an enum type is not an integer type to
// HIP's mask templates): the mask is widened at each call.
enum { WARP_MASK = 0xffffffff, HALF_MASK = 0x0000ffff };

__global__ void vote(const int *in, int *out)
{
    int v = in[threadIdx.x];
    int all = __all_sync(WARP_MASK, v > 0);
    int first = __shfl_sync(HALF_MASK, v, 0, 16);
    out[threadIdx.x] = all + first;
}
