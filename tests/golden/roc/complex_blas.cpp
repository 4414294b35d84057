#include <cublas_v2.h>
#include <cuComplex.h>

// z = a x + z on double-complex vectors, then its 2-norm.
double zaxpy_norm(cublasHandle_t h, int n, cuDoubleComplex a, const cuDoubleComplex *dx, cuDoubleComplex *dz)
{
    double norm = 0.0;
    cublasZaxpy(h, n, &a, dx, 1, dz, 1);
    cublasDznrm2(h, n, dz, 1, &norm);
    return norm;
}

// The single-precision type under both of its names.
void cscale(cublasHandle_t h, int n, cuComplex a, cuFloatComplex *dx)
{
    cublasCscal(h, n, &a, dx, 1);
}
