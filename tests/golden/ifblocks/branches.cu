#include <cuda_runtime.h>

__global__ void step(float *x, int n) { if (threadIdx.x < n) x[threadIdx.x] += 1.0f; }

// Only one branch is compiled in a given build; all of them are ported.
void run_steps(float *d, int n, int iters, cudaStream_t s)
{
#if defined(USE_GRAPHS)
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step<<<1, 256, 0, s>>>(d, n);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, NULL, NULL, 0);
    for (int i = 0; i < iters; ++i)
        cudaGraphLaunch(ge, s);
#elif defined(USE_EVENTS)
    cudaEvent_t e;
    cudaEventCreate(&e);
    for (int i = 0; i < iters; ++i) {
        step<<<1, 256, 0, s>>>(d, n);
        cudaEventRecord(e, s);
        cudaEventSynchronize(e);
    }
#else
    for (int i = 0; i < iters; ++i)
        step<<<1, 256, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
#endif
}
