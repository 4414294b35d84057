// Names in messages follow the port, as hipify-clang renames them: a word
// between spaces that is exactly a CUDA name. Anything else in a string is
// data and keeps its bytes.
#include <cstdio>
#include <cuda_runtime.h>

void timed_copy(float *d, const float *h, size_t n, cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0.0f;
    cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
    cudaEventElapsedTime(&ms, a, b);
    printf("cudaMemcpyHostToDevice time taken = %6.3fms\n", ms);
    perror("cudaSetDevice returned cudaErrorInvalidDevice");
    puts("cudaDeviceSynchronize");
    puts("two  spaces  cudaFree  between");
    // not whole words, not "cu" names, not ordinary literals: unchanged
    puts("cudaMalloc: failed; cudaFree() xcudaFree cudaMalloc\tcudaFree\n");
    puts("__syncthreads CUBLAS_STATUS_SUCCESS cudaNotAName");
    puts(L"cudaFree" == 0 ? u8"cudaFree " : R"(cudaFree )");
    putchar('c');
}
