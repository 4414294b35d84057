#include <cuda_runtime.h>

#define ALLOC_AND_CLEAR(ptr, bytes)        \
    do {                                   \
        cudaMalloc((void **)&(ptr),        \
                   (bytes));               \
        cudaMemset((ptr), 0, (bytes));     \
    } while (0)

#define DEFAULT_STREAM_SYNC() \
cudaStreamSynchronize(\
    cudaStreamPerThread)

void init(float **p, size_t n)
{
    ALLOC_AND_CLEAR(*p, n * sizeof(float));
    DEFAULT_STREAM_SYNC();
    cudaMemcpy(*p, *p, n, \
               cudaMemcpyDeviceToDevice);
}
