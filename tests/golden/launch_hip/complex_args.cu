#include <cuda_runtime.h>

struct Params { const float *in; float *out; int n; };

__global__ void apply(Params p, cudaTextureObject_t tex);

void run(const float *in, float *out, int n, cudaTextureObject_t tex, cudaStream_t s)
{
    apply<<<(n + 255) / 256, 256, 0, s>>>(Params{in, out, n}, tex);
    apply<<<1, 64>>>(Params{in, out, [n] { return n / 2; }()}, tex);
    apply<<<1, 64, 0, s>>>(Params{in, out, n > 0 ? n : 1}, (cudaTextureObject_t)0);
}
