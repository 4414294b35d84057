// Code that tests CUDA's include guards, as cuda-samples' helper_cuda.h does.
#include <cuda_runtime.h>
#include <curand.h>

#ifdef __DRIVER_TYPES_H__
static const char *errorName(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#ifdef CURAND_H_
static const char *errorName(curandStatus_t error) { return "curand"; }
#endif

#if defined(__CUDA_RUNTIME_H__)
#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
#endif
