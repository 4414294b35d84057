// Host code that calls cuBLAS only: the legacy and the v2 header both.
#include "cublas.h"
#include "cublas_v2.h"
#include <stdio.h>

int scale_vector(cublasHandle_t h, int n, float a, float *dx)
{
    if (cublasSscal(h, n, &a, dx, 1) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "sscal failed\n");
        return 1;
    }
    return 0;
}
