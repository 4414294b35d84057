// cusparseSpSM_solve lost its buffer argument in CUDA 12; hipSPARSE still
// takes one, so the CUDA 12 call gets nullptr there (as hipify-clang writes
// it) and the CUDA 11 call stays as it is.
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
