#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

void launches(int n, float a, float *x, float *y, cudaStream_t stream, size_t smem)
{
    int blocks = (n + 255) / 256, threads = 256;
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    saxpy<<<blocks, threads, 0, stream>>>(n, a, x, y);
    saxpy<<<blocks, threads, smem>>>(n, a, x, y);
    saxpy<<< 1,32,smem,cudaStreamPerThread >>>(  n, 1.0f, x, y );
    saxpy <<<blocks, threads>>> (n, a, x, y);
    if (n > 0) saxpy<<<1, 1>>>(1, a, x, y); else cudaDeviceSynchronize();
}
