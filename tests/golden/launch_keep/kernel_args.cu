#include <cuComplex.h>

__global__ void cscale(cuFloatComplex *z, cuFloatComplex s, int n);

// Kernel arguments are ordinary expressions: CUDA names in them are ported.
void scale_all(cuFloatComplex *z, int n)
{
    cscale<<<(n + 127) / 128, 128>>>(z, make_cuFloatComplex(0.5f, 0.0f), n);
    cscale<<<1, 1>>>(
        z,
        cuConjf(make_cuFloatComplex(1.0f, 2.0f)),
        1);
}
