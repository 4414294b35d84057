// Before ROCm 5.2 the ROC libraries install flat header paths too.
#include <cublas_v2.h>
#include <cusparse.h>
#include <curand.h>

int handles(cublasHandle_t *b, cusparseHandle_t *s)
{
    return (int)cublasCreate(b) + (int)cusparseCreate(s);
}
