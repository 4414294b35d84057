#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
__global__ void zero(float *p) { p[threadIdx.x] = 0.0f; }

#define ONE_BLOCK zero<<<1, 32>>>

// A launch through a function pointer is left as written (and counted); the
// launches around it are rewritten, the template one with HIP_KERNEL_NAME
// though it gives no template arguments, and a configuration from a #define
// where the macro is used with its arguments (the #define stays).
void run(float *p, void (*k)(float *))
{
    fill<<<1, 32>>>(p, 1.0f);
    ONE_BLOCK(p);
    zero<<<1, 32>>>(p);
    (*k)<<<1, 32>>>(p);
}
