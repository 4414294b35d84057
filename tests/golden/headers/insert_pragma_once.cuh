#pragma once
// Launch helper for the fill kernel.

__global__ void fill(int *p, int v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = v;
}

inline void fill_async(int *p, int v, int n, cudaStream_t s)
{
    fill<<<128, 256, 0, s>>>(p, v, n);
}
