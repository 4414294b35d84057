#include "cudnn.h"
#include <cuda_runtime.h>

cudnnHandle_t create_on_stream(cudaStream_t stream)
{
    cudnnHandle_t h;
    if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS)
        return nullptr;
    cudnnSetStream(h, stream);
    return h;
}

void destroy(cudnnHandle_t h) { cudnnDestroy(h); }
