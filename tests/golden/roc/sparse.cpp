#include <cusparse.h>

// CSR row offsets to COO row indices with rocSPARSE names.
cusparseStatus_t expand_rows(const int *d_row_ptr, int nnz, int m, int *d_coo_rows)
{
    cusparseHandle_t h;
    cusparseStatus_t st = cusparseCreate(&h);
    if (st != CUSPARSE_STATUS_SUCCESS)
        return st;
    cusparseMatDescr_t descr;
    cusparseCreateMatDescr(&descr);
    cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
    st = cusparseXcsr2coo(h, d_row_ptr, nnz, m, d_coo_rows, CUSPARSE_INDEX_BASE_ZERO);
    cusparseDestroyMatDescr(descr);
    cusparseDestroy(h);
    return st;
}
