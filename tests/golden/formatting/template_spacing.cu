#include <cuda_runtime.h>

__constant__ float coef[4];

// A call rewritten by a template keeps the spacing inside its parentheses.
void upload(const float *host, cudaEvent_t *ev)
{
    cudaMemcpyToSymbol( coef, host, 4 * sizeof(float) );
    cudaMemcpyToSymbol(coef, host, 4 * sizeof(float));
    cudaEventCreate( ev );
    cudaEventCreate (ev, cudaEventDisableTiming);
    cudaMemcpyFromSymbol(
        (void *)host, coef, sizeof(float));
}
