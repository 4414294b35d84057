#include <cuda_runtime.h>

// Row softmax and layer-norm style scaling with the fast intrinsics.
__global__ void softmax_row(const float *__restrict__ in, float *__restrict__ out, int cols)
{
    const float *row = in + blockIdx.x * cols;
    float mx = -1e30f;
    for (int c = 0; c < cols; ++c)
        mx = fmaxf(mx, __ldg(row + c));
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c)
        sum += __expf(__ldg(&row[c]) - mx);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        out[blockIdx.x * cols + c] = __fdividef(__expf(row[c] - mx), sum);
}

__device__ float normalize(float x, float mean, float var, float eps)
{
    float s, co;
    sincosf(x, &s, &co);
    float y = (x - mean) * rsqrtf(var + eps);
    return __saturatef(y) + __sinf(s) * __cosf(co) + __logf(1.0f + __powf(y, 2.0f));
}
