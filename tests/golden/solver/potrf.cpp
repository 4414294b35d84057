#include <cusolverDn.h>

// Cholesky factorisation of a symmetric positive definite matrix.
cusolverStatus_t cholesky(cusolverDnHandle_t h, int n, double *d_A, double *d_work,
                          int lwork, int *d_info)
{
    int needed = 0;
    cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, d_A, n, &needed);
    if (needed > lwork)
        return CUSOLVER_STATUS_INVALID_VALUE;
    return cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, d_A, n, d_work, lwork, d_info);
}
