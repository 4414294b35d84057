#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static void check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what,
                cudaGetErrorString(err), cudaGetErrorName(err));
        exit(EXIT_FAILURE);
    }
}

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

void launch_and_check(int *d_p, int n)
{
    touch<<<1, n>>>(d_p);
    check(cudaPeekAtLastError(), "touch launch", __FILE__, __LINE__);
    cudaError_t sync_err = cudaDeviceSynchronize();
    cudaError_t last = cudaGetLastError();
    if (sync_err == cudaErrorInvalidValue || last == cudaErrorMemoryAllocation)
        fprintf(stderr, "bad launch: %s\n", cudaGetErrorString(last));
    check(last, "touch", __FILE__, __LINE__);
}
