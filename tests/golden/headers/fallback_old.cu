#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cufft.h>
#include <cusparse.h>
#include <cusolverDn.h>

// ROCm 5.0 still has the flat library header paths only.
void init_all(cublasHandle_t *blas, curandGenerator_t *rng, cusparseHandle_t *sparse)
{
    cublasCreate(blas);
    curandCreateGenerator(rng, CURAND_RNG_PSEUDO_DEFAULT);
    cusparseCreate(sparse);
}
