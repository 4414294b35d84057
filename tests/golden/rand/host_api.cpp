#include <cuda_runtime.h>
#include <curand.h>
#include <stdio.h>

#define CURAND_CALL(x)                                        \
    do {                                                      \
        if ((x) != CURAND_STATUS_SUCCESS) {                   \
            printf("Error at %s:%d\n", __FILE__, __LINE__);   \
            return EXIT_FAILURE;                              \
        }                                                     \
    } while (0)

int fill_random(float *d_uniform, float *d_normal, size_t n, unsigned long long seed,
                cudaStream_t stream)
{
    curandGenerator_t gen;
    CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, seed));
    CURAND_CALL(curandSetStream(gen, stream));
    CURAND_CALL(curandGenerateUniform(gen, d_uniform, n));
    CURAND_CALL(curandGenerateNormal(gen, d_normal, n, 0.0f, 1.0f));
    curandStatus_t st = curandDestroyGenerator(gen);
    return st == CURAND_STATUS_SUCCESS ? EXIT_SUCCESS : EXIT_FAILURE;
}
