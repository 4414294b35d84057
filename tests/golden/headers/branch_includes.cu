#if defined(USE_DRIVER_API)
#include <cuda.h>
#else
#include <cuda_runtime.h>
#endif
#include <cuda_runtime.h>

__global__ void zero(int *p) { p[threadIdx.x] = 0; }
