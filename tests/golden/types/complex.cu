#include <cuComplex.h>
#include <cuda_runtime.h>

// Complex pointwise multiply (as in FFT convolution) and magnitude.
__global__ void cmul_scale(cuFloatComplex *a, const cuFloatComplex *b, float scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        cuFloatComplex p = cuCmulf(a[i], cuConjf(b[i]));
        a[i] = make_cuFloatComplex(scale * cuCrealf(p), scale * cuCimagf(p));
    }
}

__device__ float magnitude(cuComplex z) { return cuCabsf(z); }

__host__ __device__ cuDoubleComplex widen_sum(cuFloatComplex x, cuFloatComplex y)
{
    cuFloatComplex s = cuCaddf(x, cuCsubf(y, cuCdivf(x, y)));
    cuDoubleComplex d = cuComplexFloatToDouble(s);
    return cuCadd(d, make_cuDoubleComplex(cuCreal(d), -cuCimag(d)));
}
