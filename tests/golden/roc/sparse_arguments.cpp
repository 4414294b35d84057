// rocSPARSE calls whose arguments differ from cuSPARSE's: the solve policy
// cuSPARSE takes is rocSPARSE's own choice, analysis policies are added, a
// batch count is given twice. An int buffer size stays int (rocSPARSE wants
// size_t: no cast hides that). Without --roc the calls keep their arguments
// (hipSPARSE follows cuSPARSE).
#include <cusparse.h>

cusparseStatus_t factor(cusparseHandle_t h, int m, int nnz, const cusparseMatDescr_t d, double *val,
                        const int *row, const int *col, csrilu02Info_t info, void *buf)
{
    cusparseStatus_t s = cusparseDcsrilu02_analysis(h, m, nnz, d, val, row, col, info,
                                                    CUSPARSE_SOLVE_POLICY_USE_LEVEL, buf);
    if (s != CUSPARSE_STATUS_SUCCESS)
        return s;
    return cusparseDcsrilu02( h, m, nnz, d, val, row, col, info, CUSPARSE_SOLVE_POLICY_NO_LEVEL, buf );
}

cusparseStatus_t gemvi_size(cusparseHandle_t h, int m, int n, int nnz, int *bytes)
{
    return cusparseSgemvi_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, bytes);
}

cusparseStatus_t penta(cusparseHandle_t h, int m, float *ds, float *dl, float *d, float *du, float *dw,
                       float *x, int batches, void *buf)
{
    return cusparseSgpsvInterleavedBatch(h, 0, m, ds, dl, d, du, dw, x, batches, buf);
}
