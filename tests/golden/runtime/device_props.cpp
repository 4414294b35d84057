#include <cstdio>
#include <cuda_runtime_api.h>

void print_devices()
{
    int count = 0;
    cudaGetDeviceCount(&count);
    for (int dev = 0; dev < count; ++dev) {
        cudaDeviceProp prop;
        cudaSetDevice(dev);
        cudaGetDeviceProperties(&prop, dev);
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        std::printf("%d: %s sm_%d%d, %d SMs (%d), %zu bytes shared/block, warp %d\n",
                    dev, prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                    sms, prop.sharedMemPerBlock, prop.warpSize);
        std::printf("   %zu of %zu bytes free, max %d threads/block\n", free_b, total_b,
                    prop.maxThreadsPerBlock);
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    std::printf("driver %d, runtime %d\n", driver, runtime);
    cudaDeviceSynchronize();
    cudaDeviceReset();
}
