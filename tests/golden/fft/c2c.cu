#include <cufft.h>
#include <cuda_runtime.h>

__global__ void normalize(cufftComplex *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i].x /= n;
        data[i].y /= n;
    }
}

// Forward FFT, pointwise work, inverse FFT, normalisation.
cufftResult roundtrip(cufftComplex *d_data, int n, cudaStream_t stream)
{
    cufftHandle plan;
    cufftResult r = cufftPlan1d(&plan, n, CUFFT_C2C, 1);
    if (r != CUFFT_SUCCESS)
        return r;
    cufftSetStream(plan, stream);
    cufftExecC2C(plan, d_data, d_data, CUFFT_FORWARD);
    cufftExecC2C(plan, d_data, d_data, CUFFT_INVERSE);
    normalize<<<(n + 255) / 256, 256, 0, stream>>>(d_data, n);
    return cufftDestroy(plan);
}
