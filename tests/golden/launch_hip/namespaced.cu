#include <cuda_runtime.h>

__global__ void global_scale(float *p, float s);

namespace ops {
__global__ void scale(float *p, float s);
namespace detail {
__global__ void clear(float *p);
}
}

void run(float *p, int n)
{
    ops::scale<<<n / 256, 256>>>(p, 0.5f);
    ops::detail::clear<<<n / 256, 256>>>(p);
    ::global_scale<<<n / 256, 256>>>(p, 2.0f);
    ::ops::scale<<<1, n>>>(p, 1.0f);
}
