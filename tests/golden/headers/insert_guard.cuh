// Shared device helpers.
#ifndef KERNELS_CLAMP_CUH
#define KERNELS_CLAMP_CUH

__device__ __forceinline__ float clampf(float v, float lo, float hi)
{
    return fminf(fmaxf(v, lo), hi);
}

__global__ void clamp_all(float *p, int n, float lo, float hi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = clampf(p[i], lo, hi);
}

#endif // KERNELS_CLAMP_CUH
