#include <cuda_runtime.h>

__global__ void negate(int *p) { p[threadIdx.x] = -p[threadIdx.x]; }

void run(int *p) { negate<<<1, 128>>>(p); }
