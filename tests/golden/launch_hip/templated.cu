#include <cuda_runtime.h>

template <typename T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };

template <typename T, int N>
__global__ void fill(T *p, T v) { p[blockIdx.x * N + threadIdx.x] = v; }

template <int BLOCK, typename Op>
__global__ void reduce(const float *in, float *out, Op op);

namespace kernels {
template <typename T> __global__ void copy(const T *in, T *out, int n);
}

template <typename T>
void run(T *d, const T *s, float *out, int n, cudaStream_t stream)
{
    fill<T, 4><<<n / 4, 4>>>(d, T(1));
    fill<float, 256><<<dim3(n / 256), dim3(256), 0, stream>>>((float *)d, 0.0f);
    reduce<256, Plus<float>><<<n / 256, 256, 256 * sizeof(float), stream>>>((const float *)s, out, Plus<float>());
    kernels::copy<T><<<(n + 127) / 128, 128>>>(s, d, n);
}
