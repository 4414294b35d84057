// No ATen, c10 or torch header: PyTorch's names are not touched, even with
// --target-torch, and an ATen-like include stays.
#include <cuda_runtime.h>
#include "ATen_like/cuda/CUDAContext.h"

struct CUDAGuard { int device; };

__global__ void k(float *x) { x[threadIdx.x] = 0; }

void run(cudaStream_t s)
{
	CUDAGuard g{0};
	k<<<1, 32, 0, s>>>(nullptr);
}
