#include <cublas_v2.h>

// 64-bit-size GEMM (CUDA 12): experimental in hipBLAS.
cublasStatus_t big_gemm(cublasHandle_t h, int64_t m, int64_t n, int64_t k, const float *A,
                        const float *B, float *C)
{
    const float alpha = 1.0f, beta = 0.0f;
    return cublasSgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m);
}
