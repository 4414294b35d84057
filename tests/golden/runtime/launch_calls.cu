#include <cuda_runtime.h>

__global__ void scale(float *p, float s) { p[threadIdx.x] *= s; }
__global__ void total(const float *p, float *out) { atomicAdd(out, p[threadIdx.x]); }

cudaError_t run(float *p, float *out, float s, cudaStream_t stream)
{
    void *scale_args[] = { &p, &s };
    cudaError_t e = cudaLaunchKernel((const void *)scale, dim3(1), dim3(32), scale_args, 0, stream);
    if (e != cudaSuccess)
        return e;
    void *total_args[] = { &p, &out };
    return cudaLaunchCooperativeKernel(total, dim3(1), dim3(32), total_args, 0, stream);
}
