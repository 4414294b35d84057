#include <cusparse.h>

// y = alpha * x (sparse) + y on complex values, rocSPARSE's axpyi.
cusparseStatus_t caxpyi(cusparseHandle_t h, int nnz, const cuComplex *alpha, const cuComplex *xval,
                        const int *xind, cuComplex *y)
{
    return cusparseCaxpyi(h, nnz, alpha, xval, xind, y, CUSPARSE_INDEX_BASE_ZERO);
}

void destroy(cusparseHandle_t h, cusparseMatDescr_t d)
{
    cusparseDestroyMatDescr(d);
    cusparseDestroy(h);
}
