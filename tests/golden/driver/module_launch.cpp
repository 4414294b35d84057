#include <cstdio>
#include <cuda.h>

#define CU_CHECK(x)                                                   \
    do {                                                              \
        CUresult res_ = (x);                                          \
        if (res_ != CUDA_SUCCESS) {                                   \
            fprintf(stderr, "%s failed: %d\n", #x, (int)res_);        \
            return 1;                                                 \
        }                                                             \
    } while (0)

int run_module(const char *path, float *host, int n)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUdeviceptr d_buf;

    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&dev, 0));
    CU_CHECK(cuCtxCreate(&ctx, 0, dev));
    CU_CHECK(cuModuleLoad(&mod, path));
    CU_CHECK(cuModuleGetFunction(&fn, mod, "scale"));
    CU_CHECK(cuMemAlloc(&d_buf, n * sizeof(float)));
    CU_CHECK(cuMemcpyHtoD(d_buf, host, n * sizeof(float)));

    void *args[] = { &d_buf, &n };
    CU_CHECK(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CU_CHECK(cuCtxSynchronize());

    cuMemFree(d_buf);
    cuModuleUnload(mod);
    cuCtxDestroy(ctx);
    return 0;
}
