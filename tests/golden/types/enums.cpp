#include <cuda_runtime_api.h>
#include <string>

// Enum types and values used as ordinary C++ values.
std::string kind_name(cudaMemcpyKind kind)
{
    switch (kind) {
    case cudaMemcpyHostToHost: return "H2H";
    case cudaMemcpyHostToDevice: return "H2D";
    case cudaMemcpyDeviceToHost: return "D2H";
    case cudaMemcpyDeviceToDevice: return "D2D";
    default: return "default";
    }
}

bool is_device_pointer(const void *p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess)
        return false;
    return attr.device >= 0 && attr.devicePointer != nullptr;
}

static const cudaDeviceAttr kAttrs[] = { cudaDevAttrMaxThreadsPerBlock, cudaDevAttrWarpSize };
static const cudaFuncCache kCache = cudaFuncCachePreferShared;
