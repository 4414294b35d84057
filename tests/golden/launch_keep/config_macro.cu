#include <cuda_runtime.h>

__global__ void fill(float *v) { v[threadIdx.x] = 1.0f; }

// A macro that holds only the configuration: not a broken launch.
#define FILL_CONFIG fill<<<1, 64>>>

void run(float *p)
{
    FILL_CONFIG(p);
    cudaDeviceSynchronize();
}
