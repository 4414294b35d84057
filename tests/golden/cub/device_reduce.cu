#include <cuda_runtime.h>
#include <cub/cub.cuh>

// Two-phase DeviceReduce / DeviceScan: query temp storage, allocate, run.
cudaError_t sum_and_scan(const int *d_in, int *d_sum, int *d_scan, int n, cudaStream_t s)
{
    void *d_temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n, s);
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_sum, n, s);
    cudaFree(d_temp);

    d_temp = nullptr;
    temp_bytes = 0;
    CubDebug(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n, s));
    cudaMalloc(&d_temp, temp_bytes);
    CubDebug(cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_scan, n, s));
    return cudaFree(d_temp);
}
