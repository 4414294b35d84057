#include <cublas_v2.h>

// y = A x, then the index of the largest |y_i| (1-based, as in BLAS).
int gemv_argmax(cublasHandle_t h, int m, int n, const float *dA, const float *dx, float *dy)
{
    const float one = 1.0f, zero = 0.0f;
    int idx = 0;
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    if (cublasSgemv(h, CUBLAS_OP_N, m, n, &one, dA, m, dx, 1, &zero, dy, 1) != CUBLAS_STATUS_SUCCESS)
        return -1;
    cublasIsamax(h, m, dy, 1, &idx);
    return idx - 1;
}
