#include <cublas_v2.h>
#include <cstdio>

void report(cublasStatus_t s)
{
    if (s != CUBLAS_STATUS_SUCCESS)
        std::fprintf(stderr, "cublas: %s\n", cublasGetStatusString(s));
}
