// The generic SpMM and SpMV calls under --roc: one rocSPARSE call each, its
// stage named. A buffer size query passes no buffer; the preprocess and
// compute stages pass no size. cusparseSpMV gets the size argument
// rocsparse_spmv has (nullptr), which hipify-clang's table leaves out.
#include <cusparse.h>

cusparseStatus_t multiply(cusparseHandle_t h, const float *alpha, const float *beta, cusparseSpMatDescr_t a,
                          cusparseDnMatDescr_t b, cusparseDnMatDescr_t c, cusparseDnVecDescr_t x,
                          cusparseDnVecDescr_t y, void *buffer)
{
    size_t size = 0;
    cusparseStatus_t s;

    s = cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b,
                                beta, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &size);
    s = cusparseSpMM_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b,
                                beta, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
    s = cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b, beta, c,
                     CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
    s = cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, x, beta, y, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, &size);
    s = cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, x, beta, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT,
                     buffer);
    return s;
}
