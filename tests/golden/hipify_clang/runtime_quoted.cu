#include "cuda_runtime.h"
#include <cstdio>

__global__ void negate(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = -v[i];
}
