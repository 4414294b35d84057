#include <cuda_runtime.h>

// Group lanes by key: no mask-less HIP form exists before 6.2.
__global__ void group_by_key(const int *keys, unsigned *groups)
{
    int key = keys[threadIdx.x];
    unsigned peers = __match_any_sync(0xffffffff, key);
    groups[threadIdx.x] = peers;
}
