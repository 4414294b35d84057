#include "cublas_v2.h"

const char *status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "alloc failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
    default: return "other";
    }
}

// Batched-by-loop DGEMM with the v2 names and device-side scalars.
cublasStatus_t dgemm_all(cublasHandle_t h, int batch, const double *const *A,
                         const double *const *B, double *const *C, int n,
                         const double *d_alpha, const double *d_beta)
{
    cublasOperation_t op = CUBLAS_OP_N;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
    for (int i = 0; i < batch; ++i) {
        cublasStatus_t s = cublasDgemm_v2(h, op, op, n, n, n, d_alpha, A[i], n, B[i], n,
                                          d_beta, C[i], n);
        if (s != CUBLAS_STATUS_SUCCESS)
            return s;
    }
    double nrm = 0.0;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    return cublasDnrm2(h, n * n, C[0], 1, &nrm);
}
