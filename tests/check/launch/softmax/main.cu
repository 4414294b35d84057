// A benchmark-style program: kernels launched from main with values read
// from argv, a template kernel launched twice with different template
// arguments, a typedef'd element type, and __device__ globals as outputs.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include "utils.h"
#define BLOCK 128

__device__ int d_count;
__device__ float d_hist[16];

template <int NPB, int TPB>
__global__ void largeNetKernel(const ctype *__restrict__ in, ctype *out, const int n)
{
	int i = blockIdx.x * TPB + threadIdx.x;
	if (i < n) out[i] = in[i] * NPB;
	if (i == 0) atomicAdd(&d_count, 1);
}

__global__ void softMax(const int numSlice, const int sliceSize, const float *src, float *dest)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= numSlice) return;
	float s = 0;
	for (int k = 0; k < sliceSize; k++) s += src[i * sliceSize + k];
	for (int k = 0; k < sliceSize; k++) dest[i * sliceSize + k] = src[i * sliceSize + k] / s;
	d_hist[i % 16] = s;
}

int main(int argc, char *argv[])
{
	const int numSlice = atoi(argv[1]);
	const int sliceSize = 64;
	const int repeat = 10;
	int elems = numSlice * sliceSize;
	size_t bytes = elems * sizeof(float);
	float *d_in, *d_out;
	cudaMalloc((void **)&d_in, bytes);
	cudaMalloc(&d_out, sizeof(float) * elems);
	dim3 grids((numSlice + BLOCK - 1) / BLOCK);
	dim3 blocks(BLOCK);
	for (int i = 0; i < repeat; i++)
		softMax<<<grids, blocks>>>(numSlice, sliceSize, d_in, d_out);
	const int n = 1 << 16;
	ctype *a, *b;
	cudaMalloc(&a, n * sizeof(ctype));
	cudaMallocManaged(&b, sizeof(ctype) * n);
	int blocks2 = (n + 24 * WS - 1) / (24 * WS);
	largeNetKernel<24, 64><<<blocks2, 24 * WS>>>(a, b, n);
	largeNetKernel<8, 32><<<blocks2, 8 * WS, 0>>>(a, b, n);
	return 0;
}
