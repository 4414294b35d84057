/*
 * This header is intentionally empty: the CUDA declarations (cudaMalloc,
 * cudaStream_t, __global__ kernels) moved to gpu.cuh.
 */
// #include <cuda_runtime.h>
