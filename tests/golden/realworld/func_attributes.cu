#include <cuda_runtime.h>

__global__ void reduce(float *p) { p[threadIdx.x] = 0.0f; }

int blocks_per_sm()
{
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, reduce);
    cudaFuncSetCacheConfig(reduce, cudaFuncCachePreferShared);
    cudaFuncSetAttribute(reduce, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    return attr.maxThreadsPerBlock;
}
