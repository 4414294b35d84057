#include <cublas_v2.h>
#include <cuda_runtime.h>

// C = A * B on a user stream; error codes passed back to the caller.
cublasStatus_t gemm_nn(const float *dA, const float *dB, float *dC, int m, int n, int k,
                       cudaStream_t stream)
{
    cublasHandle_t handle;
    const float alpha = 1.0f, beta = 0.0f;
    cublasStatus_t st = cublasCreate(&handle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    cublasSetStream(handle, stream);
    st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k,
                     &beta, dC, m);
    cublasDestroy(handle);
    return st;
}
