#include <cuda_runtime.h>

#define DEFAULT_STREAM cudaStreamPerThread
#define COPY_KIND cudaMemcpyHostToDevice
#define SYNC cudaDeviceSynchronize
#define BLOCK_SIZE 256
#define GRID_FOR(n) (((n) + BLOCK_SIZE - 1) / BLOCK_SIZE)

typedef cudaStream_t stream_t;
using event_t = cudaEvent_t;

void upload(float *d, const float *h, size_t n)
{
    cudaMemcpyAsync(d, h, n * sizeof(float), COPY_KIND, DEFAULT_STREAM);
    SYNC();
}
