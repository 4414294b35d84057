#include <cuda_runtime.h>

__global__ void inc(int *p)
{
    p[threadIdx.x] += 1;
}

void run(int *d, cudaStream_t s)
{
    inc<<<1, 64, 0, s>>>(d);
    cudaStreamSynchronize(s);
}
