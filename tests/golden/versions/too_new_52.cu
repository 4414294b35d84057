#include <cuda.h>
#include <cuda_runtime.h>

// Device-side malloc heap: newer than HIP 5.2, left as is and said; the
// driver's error string, also newer, is the runtime's (a fallback).
int setup_heap(size_t bytes)
{
    cudaError_t err = cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes);
    if (err != cudaSuccess)
        return -1;
    CUresult r = cuInit(0);
    if (r != CUDA_SUCCESS) {
        const char *msg = nullptr;
        cuGetErrorString(r, &msg);
        return -2;
    }
    return 0;
}
