#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

template <typename T, int TILE>
__global__ void transpose(const T *in, T *out, int w, int h);

void launches(int n, float *x, float *y, cudaStream_t stream, size_t smem)
{
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    saxpy<<<dim3((n + 255) / 256), dim3(256), 0, stream>>>(n, 2.0f, x, y);
    saxpy<<< 1,32,smem,cudaStreamPerThread >>>(n, 1.0f, x, y);
    transpose<float, 32><<<dim3(n / 32, n / 32), dim3(32, 8), 0, stream>>>(x, y, n, n);
    cudaStreamSynchronize(stream);
}
