#include <cuda_runtime.h>

// Names that are also used as plain integers keep their definitions; the
// mask is widened at the call instead (all ones becomes all 64 lanes, any
// other value is kept). A parameter keeps its callers' type.
#define MASK 0xffffffff

__device__ int broadcast(int v, unsigned lanes)
{
    return __shfl_sync(lanes, v, 0);
}

__global__ void count(const int *in, unsigned *out)
{
    int v = in[threadIdx.x];
    unsigned ballot = __ballot_sync(MASK, v > 0);
    int leader = __ffs(ballot) - 1;
    v = __shfl_sync(ballot, v, leader);
    out[threadIdx.x] = (MASK & (unsigned)v) + __popc(ballot) + broadcast(v, MASK);
}
