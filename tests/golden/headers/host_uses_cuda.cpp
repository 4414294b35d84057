// Host-only helper: the CUDA declarations come from the project's own header.
#include "gpu_buffers.h"
#include <cstddef>

void *device_alloc(std::size_t bytes)
{
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess)
        return nullptr;
    return p;
}

void device_free(void *p) { cudaFree(p); }
