#include <cuda_runtime.h>

template <typename T>
__global__ void axpy(T a, const T *x, T *y) { y[threadIdx.x] += a * x[threadIdx.x]; }
__global__ void empty() {}

// Kernels, configurations and arguments that macros hold, as hipify-clang
// sees them expanded: a kernel macro with template arguments is a template
// (HIP_KERNEL_NAME), a configuration macro becomes the launch where its
// arguments are given; argument macros stay macros.
#define KERNEL_NAME axpy<float>
#define ARGS a, x, y
#define BLOCK_OF_64 axpy<float><<<1, 64>>>
#define EMPTY_ON(s) empty<<<1, 1, 0, s>>>

void run(float a, const float *x, float *y, cudaStream_t s)
{
    KERNEL_NAME<<<1, 64>>>(ARGS);
    BLOCK_OF_64(ARGS);
    BLOCK_OF_64 (a, x, y);
    EMPTY_ON(s)();
}
