#include <cuda_runtime.h>

void ported(float *d) { cudaFree(d); }

// hipport off
void vendor_code(float *d)
{
    cudaFree(d);
    cudaDeviceReset();
}
