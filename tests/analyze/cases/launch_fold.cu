// Launches whose dynamic shared memory is plain arithmetic (literals, sizeof
// of builtin types): a function is parsed for it only when the value read
// from the tokens may be above 64 KiB, or cannot be read there.
#include <cuda_runtime.h>

__global__ void fill(float *v, int n)
{
  extern __shared__ float stage[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i < n) v[i] = stage[blockDim.x - 1 - threadIdx.x];
}

// 1024 * 8 * 10 = 81,920 bytes.
void launch_doubles(float *v, int n, cudaStream_t stream)
{
  fill<<<(n + 255) / 256, 256, 1024 * sizeof(double) * 10, stream>>>(v, n); // expect: ARCH-004
}

// 8 * 9000 = 72,000 bytes, the type in several keywords.
void launch_wide(float *v, int n)
{
  fill<<<1, 256, sizeof(unsigned long long) * 9000>>>(v, n); // expect: ARCH-004
}

// long double has no size here: the parse tells (16 * 5000 = 80,000).
void launch_long_double(float *v, int n)
{
  fill<<<1, 256, sizeof(long double) * 5000>>>(v, n); // expect: ARCH-004
}

// 1 KiB, and exactly 64 KiB: both fit.
void launch_small(float *v, int n, cudaStream_t stream)
{
  fill<<<1, 256, 256 * sizeof(float), stream>>>(v, n);
  fill<<<1, 256, (1 << 16) /* all of it */, stream>>>(v, n);
  fill<<<1, 256, 4096 - 16 * 4, stream>>>(v, n);
}

void launch_cooperative(float *v, int n)
{
  void *args[] = { &v, &n };
  cudaLaunchCooperativeKernel((void *)fill, dim3(1), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)fill, dim3(1), dim3(256), args, 70000 /* bytes */, 0); // expect: ARCH-004
  cudaLaunchKernel((void *)fill, dim3(1), dim3(256), args, 2 * sizeof(int) << 14, 0); // expect: ARCH-004
}
