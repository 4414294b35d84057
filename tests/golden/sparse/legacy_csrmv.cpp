#include <cusparse_v2.h>

// Pre-CUDA-11 csrmv with a matrix descriptor.
void legacy_spmv(cusparseHandle_t h, int m, int n, int nnz, const float *alpha,
                 const float *val, const int *row_ptr, const int *col_ind,
                 const float *x, const float *beta, float *y)
{
    cusparseMatDescr_t descr;
    cusparseCreateMatDescr(&descr);
    cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
    cusparseScsrmv(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, alpha, descr, val,
                   row_ptr, col_ind, x, beta, y);
    cusparseDestroyMatDescr(descr);
}
