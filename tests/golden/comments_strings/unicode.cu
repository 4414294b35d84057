// Größe des Puffers in Bytes — µs timing, 中文注释 cudaMalloc
#include <cuda_runtime.h>

void alloc_buffers(float **p, size_t n)
{
    const char *label = "Puffer für cudaMalloc — ok";
    cudaMalloc(p, n * sizeof(float)); // → hipMalloc
    (void)label;
}
