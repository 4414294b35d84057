#include "device_launch_parameters.h"

__global__ void iota(int *p)
{
    p[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
}
