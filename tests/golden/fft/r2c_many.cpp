#include "cufft.h"

// Batched 2-D real-to-complex transforms of rows x cols images.
int plan_images(cufftHandle *plan, int rows, int cols, int batch)
{
    int dims[2] = { rows, cols };
    int odist = rows * (cols / 2 + 1);
    cufftResult r = cufftPlanMany(plan, 2, dims, NULL, 1, rows * cols, NULL, 1, odist,
                                  CUFFT_R2C, batch);
    return r == CUFFT_SUCCESS ? 0 : -1;
}

int transform(cufftHandle plan, cufftReal *in, cufftComplex *out,
              cufftDoubleComplex *zin, cufftHandle zplan)
{
    if (cufftExecR2C(plan, in, out) != CUFFT_SUCCESS)
        return -1;
    return cufftExecZ2Z(zplan, zin, zin, CUFFT_FORWARD) == CUFFT_SUCCESS ? 0 : -1;
}
