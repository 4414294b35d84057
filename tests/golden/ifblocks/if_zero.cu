#include <cuda_runtime.h>

void cleanup(float *d)
{
#if 0
    // Old path kept for reference; it is ported too.
    cudaThreadSynchronize();
    cudaFree(d);
#else
    cudaDeviceSynchronize();
    cudaFree(d);
#endif
}

#if 0
This block is not code: "unbalanced { and a stray ' quote" are fine here;
cudaMalloc text in it is ported like any other token.
#endif
