#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void to_radians(float *deg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        deg[i] *= CUDART_PI_F / 180.0f;
}
