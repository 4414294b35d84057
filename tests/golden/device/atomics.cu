#include <cuda_runtime.h>

__device__ double atomicMaxDouble(double *addr, double val)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        if (__longlong_as_double(assumed) >= val)
            break;
        old = atomicCAS(p, assumed, __double_as_longlong(val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void histogram(const unsigned char *in, int n, unsigned int *bins,
                          double *max_seen, int *lock)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&bins[b], local[b]);
    __threadfence();
    if (threadIdx.x == 0) {
        while (atomicExch(lock, 1) != 0)
            ;
        atomicMaxDouble(max_seen, (double)local[0]);
        atomicMax((int *)&bins[0], 0);
        __threadfence_system();
        atomicExch(lock, 0);
    }
}
