#include <cuda_runtime.h>
#include <cuda_bf16.h>

// Storage-only use of bfloat16: convert once on load.
__global__ void widen(const __nv_bfloat16 *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = static_cast<float>(in[i]);
}
