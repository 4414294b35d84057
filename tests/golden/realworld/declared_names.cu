// Variables the user names like CUDA types keep their names; the types are ported.
#include <cuda_runtime.h>

int run(float **p)
{
    cudaError_t cudaError = cudaMalloc(p, 4);
    cudaStream_t stream;
    int cudaStream = 0;
    struct cudaDeviceProp prop;
    switch (cudaError) {
    case cudaSuccess:
        break;
    default:
        return cudaErrorInvalidValue;
    }
    cudaGetDeviceProperties(&prop, cudaStream);
    cudaStreamCreate(&stream);
    return (int)cudaError;
}
