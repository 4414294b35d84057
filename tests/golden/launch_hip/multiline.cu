#include <cuda_runtime.h>

__global__ void fused_bias_gelu(const float *in, const float *bias, float *out, int rows,
                                int cols);

void fused(const float *in, const float *bias, float *out, int rows, int cols,
           cudaStream_t stream)
{
    const dim3 grid(rows), block(256);
    const size_t shmem_bytes = cols * sizeof(float);
    fused_bias_gelu<<<grid,
                      block,
                      shmem_bytes,
                      stream>>>(in,
                                bias,
                                out,
                                rows, cols);
    fused_bias_gelu
        <<<(rows + 3) / 4, dim3(256, 4)>>>
        (in, bias, out, rows, cols);
}
