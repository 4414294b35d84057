#include <cuda_runtime.h>

void configure_heap(size_t bytes)
{
    cudaThreadSetLimit(cudaLimitMallocHeapSize, bytes);
    cudaDeviceSynchronize();
}
