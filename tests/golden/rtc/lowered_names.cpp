#include <cuda.h>
#include <nvrtc.h>

// Template kernel instantiated by name, then loaded with the driver API.
CUresult load_instance(nvrtcProgram prog, const char *ptx, CUfunction *fn)
{
    const char *lowered = nullptr;
    if (nvrtcAddNameExpression(prog, "scale<float>") != NVRTC_SUCCESS)
        return CUDA_ERROR_INVALID_VALUE;
    nvrtcGetLoweredName(prog, "scale<float>", &lowered);
    CUmodule mod;
    CUresult r = cuModuleLoadDataEx(&mod, ptx, 0, nullptr, nullptr);
    if (r != CUDA_SUCCESS)
        return r;
    return cuModuleGetFunction(fn, mod, lowered);
}
