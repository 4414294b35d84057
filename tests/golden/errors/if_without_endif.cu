#include <cuda_runtime.h>
#ifdef USE_PINNED
void *alloc(size_t n) { void *p; cudaMallocHost(&p, n); return p; }
