#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUBLAS_CHECK(call)                                               \
    do {                                                                 \
        cublasStatus_t st_ = (call);                                     \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                              \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)st_,      \
                    __FILE__, __LINE__);                                 \
        }                                                                \
    } while (0)

// C = alpha * A^T * B + beta * C, column-major, on a user stream.
void gemm_tn(const float *dA, const float *dB, float *dC, int m, int n, int k,
             cudaStream_t stream)
{
    cublasHandle_t handle;
    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream));
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha,
                             dA, k, dB, k, &beta, dC, m));
    CUBLAS_CHECK(cublasDestroy(handle));
}
