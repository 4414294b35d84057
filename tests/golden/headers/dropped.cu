#include <cuda_runtime.h>
#include "device_launch_parameters.h"
#include <texture_fetch_functions.h>
#include <cstdio>

__global__ void hello()
{
    printf("block %d thread %d\n", (int)blockIdx.x, (int)threadIdx.x);
}
