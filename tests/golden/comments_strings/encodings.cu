// Copyright © 2019 Größe AG, Zürich (Latin-1)
// “smart quotes” and € from Windows-1252, a lone Ã and a cut â‚ sequence
#include <cuda_runtime.h>
#include <cstdio>

__global__ void k(float *x) { x[threadIdx.x] = 1.0f; } /* naïve   */

int main()
{
	float *d;
	cudaMalloc(&d, 4 * sizeof(float)); // réservé
	k<<<1, 4>>>(d);
	printf("fertig §%d – ÿ\n", (int)cudaDeviceSynchronize());
	const char *s = "café œ";
	cudaFree(d);
	return s[0];
}
