#include <cuda.h>

// Context calls HIP deprecated (1.9, 6.1) but still provides: ported as is.
CUresult with_context(CUdevice dev)
{
    CUcontext ctx, primary;
    CUresult r = cuCtxCreate(&ctx, 0, dev);
    if (r != CUDA_SUCCESS)
        return r;
    cuCtxSetCurrent(ctx);
    cuDevicePrimaryCtxRetain(&primary, dev);
    cuDevicePrimaryCtxRelease(dev);
    return cuCtxDestroy(ctx);
}
