#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int run_axpy(int n, float a)
{
    float *h_x = nullptr, *h_y = nullptr;
    float *d_x = nullptr, *d_y = nullptr;
    size_t bytes = n * sizeof(float);

    cudaMallocHost((void **)&h_x, bytes);
    cudaMallocHost((void **)&h_y, bytes);
    cudaMalloc((void **)&d_x, bytes);
    cudaMalloc(&d_y, bytes);
    cudaMemset(d_y, 0, bytes);

    cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);
    axpy<<<(n + 255) / 256, 256>>>(n, a, d_x, d_y);
    cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(d_x, d_y, bytes, cudaMemcpyDeviceToDevice);

    float *managed = nullptr;
    cudaMallocManaged(&managed, bytes, cudaMemAttachGlobal);
    cudaMemcpy(managed, h_y, bytes, cudaMemcpyDefault);

    cudaFree(managed);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFreeHost(h_x);
    cudaFreeHost(h_y);
    return 0;
}
