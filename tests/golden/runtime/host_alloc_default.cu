#include <cuda_runtime.h>

int stage(int n) {
  float *pinned = 0;
  double *flagged = 0;
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMallocHost((void **)&flagged, n * sizeof(double), cudaHostAllocMapped);
  cudaFreeHost(pinned);
  return cudaFreeHost(flagged) == cudaSuccess;
}
