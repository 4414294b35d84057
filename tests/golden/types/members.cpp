#include <cuda_runtime_api.h>
#include "mock_cuda.h"

// A dispatch table whose members are named after the CUDA functions they are
// loaded from (dlsym): members and other namespaces' names are the user's.
struct CudaApi {
    cudaError_t (*cudaMalloc)(void **, size_t);
    cudaError_t (*cudaFree)(void *);
};

cudaError_t roundtrip(const CudaApi &api, const CudaApi *papi, void **p)
{
    api.cudaMalloc(p, 64);
    papi->cudaFree(*p);
    mock::cudaDeviceSynchronize();
    return ::cudaDeviceSynchronize();
}
