// Another program whose main.cu has a kernel named softMax: its spec must
// not take the first program's name. Its sizes come from new[] and a byte
// count held in a variable; the launch sits in a loop over a counter.
#include <cuda_runtime.h>

__global__ void softMax(float *x, int n, int step)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] = x[i] * step;
}

int main()
{
	int n = 3000;
	size_t bytes = sizeof(float) * n;
	float *h = new float[n];
	float *d;
	cudaMalloc((void **)&d, bytes);
	cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
	for (int step = 0; step < 4; step++)
		softMax<<<(n + 127) / 128, 128>>>(d, n, step);
	cudaFree(d);
	delete[] h;
	return 0;
}
