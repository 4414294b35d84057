#include <cuda_runtime.h>
#include <cusparse.h>

// y = A * x with the generic SpMV API (CSR, 32-bit indices, float values).
cusparseStatus_t csr_spmv(cusparseHandle_t handle, int rows, int cols, int nnz,
                          int *d_offsets, int *d_columns, float *d_values,
                          float *d_x, float *d_y)
{
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    float alpha = 1.0f, beta = 0.0f;
    size_t buffer_size = 0;
    void *d_buffer = NULL;

    cusparseCreateCsr(&matA, rows, cols, nnz, d_offsets, d_columns, d_values,
                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                      CUDA_R_32F);
    cusparseCreateDnVec(&vecX, cols, d_x, CUDA_R_32F);
    cusparseCreateDnVec(&vecY, rows, d_y, CUDA_R_32F);
    cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX,
                            &beta, vecY, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buffer_size);
    cudaMalloc(&d_buffer, buffer_size);
    cusparseStatus_t st = cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA,
                                       vecX, &beta, vecY, CUDA_R_32F,
                                       CUSPARSE_SPMV_ALG_DEFAULT, d_buffer);
    cusparseDestroySpMat(matA);
    cusparseDestroyDnVec(vecX);
    cusparseDestroyDnVec(vecY);
    cudaFree(d_buffer);
    return st;
}
