// Device code only: whoever includes this brings the rest.
/* No #include at all. */

__global__ void zero(double *p, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = 0.0;
}
