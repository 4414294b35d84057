#include <cuda_runtime.h>

template <typename T, int N = 4>
__global__ void scale(T *v, T f) { v[threadIdx.x] *= f; }

__global__ void plain(float *v) { v[threadIdx.x] = 0.0f; }

// Launch configurations written in a macro; the arguments come at the use.
#define CONFIG_ONLY scale<float><<<1, 32>>>
#define WHOLE_LAUNCH(p) scale<<<1, 32>>>(p, 2.0f)

void run(float *p, cudaStream_t s)
{
    // a template kernel whose arguments are deduced is still a template
    scale<<<1, 32, 0, s>>>(p, 2.0f);
    scale<float, 8><<<1, 32>>>(p, 2.0f);
    plain<<<1, 32>>>(p);
    CONFIG_ONLY(p, 3.0f);
    WHOLE_LAUNCH(p);
}
