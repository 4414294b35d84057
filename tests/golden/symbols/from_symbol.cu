#include <cuda_runtime.h>

__device__ unsigned long long d_hist[64];
__device__ float d_max;

// Read results back from __device__ variables, synchronously and on a stream.
void read_back(unsigned long long *h_hist, float *h_max, cudaStream_t stream)
{
    cudaMemcpyFromSymbol(h_hist, d_hist, sizeof(d_hist));
    cudaMemcpyFromSymbol(h_max, d_max, sizeof(float), 0, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbolAsync(h_hist, d_hist, 32 * sizeof(unsigned long long),
                              32 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
}

void reset(cudaStream_t stream)
{
    static const float zero = 0.0f;
    cudaMemcpyToSymbolAsync(d_max, &zero, sizeof(zero), 0, cudaMemcpyHostToDevice, stream);
}
