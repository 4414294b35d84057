#include <cuda_runtime.h>

// hipport off
// Hand-ported already: keep exactly as written, including the include.
#include <cuda_fp16.h>
#define FULL_MASK 0xffffffff
__device__ float hand_reduce(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, o);
    return v;
}
// hipport on

__global__ void sum(const float *in, float *out)
{
    float v = hand_reduce(in[threadIdx.x]);
    if (threadIdx.x == 0)
        atomicAdd(out, v);
}

void run(const float *in, float *out, cudaStream_t s)
{
    sum<<<1, 32, 0, s>>>(in, out);
    cudaStreamSynchronize(s);
}
