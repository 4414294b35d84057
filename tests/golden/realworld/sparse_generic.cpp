// cuSPARSE's generic API with cudaDataType values: hipDataType exists in HIP 5.2.
#include <cusparse.h>

cusparseStatus_t make(cusparseDnVecDescr_t *v, int64_t n, float *d)
{
    cudaDataType type = CUDA_R_32F;
    return cusparseCreateDnVec(v, n, d, type == CUDA_R_64F ? CUDA_R_64F : CUDA_R_32F);
}
