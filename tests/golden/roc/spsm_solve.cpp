// cusparseSpSM_solve under --roc: the stage goes where CUDA 12 has its
// descriptor, and the buffer CUDA 11 passed last follows the buffer size
// (nullptr: none asked for); CUDA 12 has no buffer, so nullptr there too.
#include <cusparse.h>

cusparseStatus_t solve12(cusparseHandle_t h, const float *alpha, cusparseSpMatDescr_t a, cusparseDnMatDescr_t b,
                         cusparseDnMatDescr_t c, cusparseSpSMDescr_t d)
{
    return cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b, c,
                              CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, d);
}

cusparseStatus_t solve11(cusparseHandle_t h, const float *alpha, cusparseSpMatDescr_t a, cusparseDnMatDescr_t b,
                         cusparseDnMatDescr_t c, cusparseSpSMDescr_t d, void *buffer)
{
    return cusparseSpSM_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, a, b, c,
                              CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, d, buffer);
}
