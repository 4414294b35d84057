#include <cuda_runtime.h>

__global__ void k(float *p)
{
    if (threadIdx.x == 0) {
        p[0] = 1.0f;
}
