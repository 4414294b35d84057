#include <cuda_runtime.h>

__device__ float d_table[256];

// Raw pointer and size of a __device__ array, e.g. to hand it to a library.
float *table_pointer(size_t *bytes)
{
    void *p = nullptr;
    cudaGetSymbolAddress(&p, d_table);
    cudaGetSymbolSize(bytes, d_table);
    cudaMemset(p, 0, *bytes);
    return static_cast<float *>(p);
}
