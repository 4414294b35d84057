// A library's own overloads of the shuffle intrinsics for its half type
// (pytorch_scatter's utils.cuh): their names are the user's and stay; the
// CUDA calls inside them and elsewhere are ported.
#include <cuda_fp16.h>

struct Half {
    __half x;
    __device__ operator __half() const { return x; }
    __device__ Half(__half v) : x(v) {}
};

__device__ __inline__ Half __shfl_down_sync(const unsigned mask, const Half var, const unsigned int delta) {
    return __shfl_down_sync(mask, var.operator __half(), delta);
}

__global__ void reduce(Half *h, float *f) {
    h[threadIdx.x] = __shfl_down_sync(0xffffffffu, h[threadIdx.x], 1);
    f[threadIdx.x] = __shfl_down_sync(0xffffffffu, f[threadIdx.x], 1);
}
