#ifndef SCAN_CUH
#define SCAN_CUH
#include <cstdint>

__global__ void inclusive_scan_block(const int32_t *in, int32_t *out)
{
    __shared__ int32_t s[256];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int32_t v = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    out[threadIdx.x] = s[threadIdx.x];
}

#endif
