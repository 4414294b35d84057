#include <cuda_runtime.h>

// Generated wrappers: the pasted names are built by the preprocessor, so only
// the spelled-out CUDA names are renamed.
#define DECLARE_COPY(dir, kind)                                             \
    inline cudaError_t copy_##dir(void *dst, const void *src, size_t n)     \
    {                                                                       \
        return cudaMemcpy(dst, src, n, kind);                               \
    }

DECLARE_COPY(h2d, cudaMemcpyHostToDevice)
DECLARE_COPY(d2h, cudaMemcpyDeviceToHost)

#define CUDA_NAME(x) cuda##x
#define STRINGIFY(x) #x
#define API_NAME(fn) STRINGIFY(fn)

static const char *kFree = API_NAME(cudaFree);
