#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T *p, T v) { p[threadIdx.x] = v; }
__global__ void zero(float *p) { p[threadIdx.x] = 0.0f; }

#define ONE_BLOCK zero<<<1, 32>>>

// A launch through a #define and one through a function pointer are left as
// written (and counted); the launches around them are rewritten, the template
// one with HIP_KERNEL_NAME though it gives no template arguments.
void run(float *p, void (*k)(float *))
{
    fill<<<1, 32>>>(p, 1.0f);
    ONE_BLOCK(p);
    zero<<<1, 32>>>(p);
    (*k)<<<1, 32>>>(p);
}
