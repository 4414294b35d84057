#include <curand_kernel.h>
#include <curand_philox4x32_x.h>

// Counter-based generator: four uniforms and two normals per call.
__global__ void dropout_mask(float *mask, float keep, unsigned long long seed, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4)
        return;
    curandStatePhilox4_32_10_t st;
    curand_init(seed, i, 0, &st);
    float4 u = curand_uniform4(&st);
    float2 g = curand_normal2(&st);
    mask[4 * i + 0] = u.x < keep ? 1.0f / keep : 0.0f;
    mask[4 * i + 1] = u.y < keep ? 1.0f / keep : 0.0f;
    mask[4 * i + 2] = u.z < keep ? 1.0f / keep : 0.0f;
    mask[4 * i + 3] = (u.w < keep ? 1.0f / keep : 0.0f) + 0.0f * (g.x + g.y);
}
