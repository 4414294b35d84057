#include <cuda_runtime.h>
#include <curand.h>

// Uniform doubles and Poisson counts from one XORWOW generator.
int sample(double *d_u, unsigned int *d_counts, size_t n, cudaStream_t stream)
{
    curandGenerator_t gen;
    if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_XORWOW) != CURAND_STATUS_SUCCESS)
        return 1;
    curandSetStream(gen, stream);
    curandSetPseudoRandomGeneratorSeed(gen, 42ULL);
    curandSetGeneratorOffset(gen, 0ULL);
    curandGenerateUniformDouble(gen, d_u, n);
    curandGeneratePoisson(gen, d_counts, n, 4.0);
    curandDestroyGenerator(gen);
    return 0;
}
