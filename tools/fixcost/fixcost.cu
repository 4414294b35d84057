// Kernels whose ports take a fix that trades speed for correctness or for
// building at all; tools/bench-fixes checks them as a user's program, so each
// check times the original (reference) against the fixed port.
#include <cuda_fp16.h>

// ATOM-001 (half): every thread adds one to a counter shared by n / nbins
// threads; the sums stay below 2048, exact in half whatever the order.
__global__ void add_half(__half *bins, int nbins, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&bins[i % nbins], __float2half(1.0f));
}

// ATOM-001 (half2): the same on pairs.
__global__ void add_half2(__half2 *bins, int nbins, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&bins[i % nbins], __floats2half2_rn(1.0f, 1.0f));
}

// ATOM-002: a 16-bit counter incremented by a compare-and-swap loop.
__global__ void count_u16(unsigned short *counts, int ncounts, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned short *c = &counts[i % ncounts];
	unsigned short old = *c, assumed;
	do {
		assumed = old;
		old = atomicCAS(c, assumed, (unsigned short)(assumed + 1));
	} while (old != assumed);
}

// PREC-006: reciprocal square roots in a loop, as a normalisation takes them.
__global__ void rnorm(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i], acc = 0.0f;
	for (int k = 0; k < 64; ++k)
		acc += rsqrtf(v + (float)k);
	y[i] = acc;
}
