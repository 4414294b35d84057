#include <cuda_runtime.h>

void *pinned_or_managed(size_t bytes)
{
    void *p = nullptr;
#ifdef USE_MANAGED
#  ifdef PREFETCH
    cudaMallocManaged(&p, bytes);
    cudaMemPrefetchAsync(p, bytes, 0, cudaStreamPerThread);
#  else
    cudaMallocManaged(&p, bytes, cudaMemAttachGlobal);
#  endif
#else
#  if defined(_WIN32)
    cudaHostAlloc(&p, bytes, cudaHostAllocDefault);
#  elif defined(__linux__)
#    ifndef NO_PINNED
    cudaMallocHost(&p, bytes);
#    else
    p = malloc(bytes);
#    endif
#  endif
#endif
    return p;
}
