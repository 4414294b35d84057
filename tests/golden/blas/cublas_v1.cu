// The legacy cuBLAS API (cublas.h): its BLAS calls take no handle, and
// hipBLAS has them only with one, so they are left and said (as
// hipify-clang leaves them); its helpers, types and status codes, which
// are the same in both APIs, are ported.
#include <stdio.h>
#include "cublas.h"

static void modify(float *m, int ldm, int n, int p, int q, float alpha)
{
    cublasSscal(n - p, alpha, &m[p + q * ldm], ldm);
}

int main(void)
{
    cublasStatus stat;
    float a[30] = { 0 }, *d = 0;

    stat = cublasSetMatrix(6, 5, sizeof(*a), a, 6, d, 6);
    if (stat != CUBLAS_STATUS_SUCCESS)
        return 1;
    modify(d, 6, 5, 1, 2, 16.0f);
    stat = cublasGetMatrix(6, 5, sizeof(*a), d, 6, a, 6);
    printf("%f\n", a[0]);
    return stat == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
