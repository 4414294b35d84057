#include <cuda_runtime.h>
#include <cstdio>

__global__ void busy(float *p, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        p[i] = p[i] * 2.0f + 1.0f;
}

float time_two_streams(float *d_a, float *d_b, int n)
{
    cudaStream_t s0, s1;
    cudaEvent_t start, stop, done;
    cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s1, cudaStreamDefault);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming | cudaEventBlockingSync);

    cudaEventRecord(start, s0);
    busy<<<1, 256, 0, s0>>>(d_a, n);
    cudaEventRecord(done, s0);
    cudaStreamWaitEvent(s1, done, 0);
    busy<<<1, 256, 0, s1>>>(d_b, n);
    cudaEventRecord(stop, s1);

    while (cudaStreamQuery(s1) == cudaErrorNotReady)
        ;
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaEventDestroy(done);
    cudaStreamDestroy(s0);
    cudaStreamDestroy(s1);
    return ms;
}
