#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <cuda_profiler_api.h>
#include <cublas.h>
#include <cublas_v2.h>
#include <cstdio>

void profile_region(bool on)
{
    if (on)
        cudaProfilerStart();
    else
        cudaProfilerStop();
}
