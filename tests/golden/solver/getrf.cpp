#include <cuda_runtime.h>
#include <cusolverDn.h>

// Solve A X = B by LU with partial pivoting (single precision).
int lu_solve(cusolverDnHandle_t handle, cudaStream_t stream, int n, int nrhs,
             float *d_A, float *d_B, int *d_ipiv, int *d_info)
{
    int lwork = 0;
    float *d_work = nullptr;
    cusolverDnSetStream(handle, stream);
    cusolverStatus_t st = cusolverDnSgetrf_bufferSize(handle, n, n, d_A, n, &lwork);
    if (st != CUSOLVER_STATUS_SUCCESS)
        return -1;
    cudaMalloc(&d_work, sizeof(float) * lwork);
    cusolverDnSgetrf(handle, n, n, d_A, n, d_work, d_ipiv, d_info);
    cusolverDnSgetrs(handle, CUBLAS_OP_N, n, nrhs, d_A, n, d_ipiv, d_B, n, d_info);
    cudaFree(d_work);
    return 0;
}

cusolverDnHandle_t make_handle()
{
    cusolverDnHandle_t h = nullptr;
    return cusolverDnCreate(&h) == CUSOLVER_STATUS_SUCCESS ? h : nullptr;
}
