#include <cuda_fp16.h>

// Mixed-precision AXPY and a half2 dot product, as in inference kernels.
__global__ void haxpy(int n, __half a, const __half *x, __half *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __hfma(a, x[i], y[i]);
}

__global__ void h2dot(int n2, const __half2 *x, const __half2 *y, float *out)
{
    __half2 acc = __float2half2_rn(0.0f);
    for (int i = threadIdx.x; i < n2; i += blockDim.x)
        acc = __hfma2(x[i], y[i], acc);
    float2 f = __half22float2(acc);
    atomicAdd(out, f.x + f.y);
}

__device__ __half scale_bias(__half v, float s, float b)
{
    __half hs = __float2half(s);
    __half r = __hadd(__hmul(v, hs), __float2half_rn(b));
    if (__hisnan(r) || __hlt(r, __float2half(0.0f)))
        r = __hneg(r);
    __half2 pair = __halves2half2(r, hs);
    return __float2half(__half2float(r) + __low2float(pair) + __high2float(pair));
}
