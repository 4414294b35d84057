#include <cuda_runtime.h>

// Pre-CUDA-4 style host code: the cudaThread* calls became cudaDevice*.
void finish(float *d_buf)
{
    cudaThreadSynchronize();
    cudaFree(d_buf);
    cudaThreadExit();
}
