#include <cuda.h>
#include <vector>
#include <cuda_runtime.h>

int count_devices()
{
    int n = 0;
    cuInit(0);
    cudaGetDeviceCount(&n);
    return n;
}
