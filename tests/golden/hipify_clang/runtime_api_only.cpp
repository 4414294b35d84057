#include <cuda_runtime_api.h>

size_t free_bytes()
{
    size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    return free;
}
