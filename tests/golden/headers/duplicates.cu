#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>
#include <curand_kernel.h>
#include <curand_normal.h>
#include <cstdio>

void profile_region(bool on)
{
    if (on)
        cudaProfilerStart();
    else
        cudaProfilerStop();
}
