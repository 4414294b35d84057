#include <cuda_runtime.h>

void finish() { cudaDeviceSynchronize(); }
cudaError_t last() { return cudaGetLastError(); }