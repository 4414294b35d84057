// An enumerator named through its CUDA enum type is CUDA's too.
#include <cuda_runtime.h>
#include <cassert>

void check(cudaError_t err, cudaMemcpyKind kind)
{
	assert(err == cudaError::cudaSuccess);
	assert(kind != cudaMemcpyKind::cudaMemcpyDeviceToHost);
}
