#include <cuda_runtime.h>

__global__ void scale(float *p, int n);
template <typename T, int BLOCK> __global__ void reduce_kernel(const T *in, T *out, int n);

#define LAUNCH_SCALE(p, n) scale<<<((n) + 255) / 256, 256>>>(p, n)

#define LAUNCH_REDUCE(T, in, out, n, s)                                \
    reduce_kernel<T, 256><<<((n) + 255) / 256, 256,                    \
                           256 * sizeof(T), (s)>>>((in), (out), (n))

void run(float *p, float *out, int n, cudaStream_t s)
{
    LAUNCH_SCALE(p, n);
    LAUNCH_REDUCE(float, p, out, n, s);
}
