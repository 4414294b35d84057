#include <cuda_runtime.h>
#include <stdint.h>

__device__ int lowest_set(uint32_t mask) { return __ffs(mask) - 1; }

__device__ int highest_set(uint32_t mask) { return 31 - __clz(mask); }

__global__ void bit_stats(const uint32_t *words, const uint64_t *wide, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    uint32_t w = words[i];
    out[4 * i + 0] = __popc(w);
    out[4 * i + 1] = __popcll(wide[i]);
    out[4 * i + 2] = lowest_set(w) + highest_set(w);
    out[4 * i + 3] = (int)__brev(w) ^ (int)__umulhi(w, 2654435761u) ^ __mul24(i, 3);
}
