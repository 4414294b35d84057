// hipport check draft of a program and of its port: the same specs. Launches
// in an extern "C" wrapper with their own block size (cuda-samples'
// binomialOptions), buffers sized by cudaMalloc and kin (CUDA by Example's
// dot.cu; hipMalloc and kin in the port), cooperative groups through an
// alias (llm.c's classifier_fused.cu).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

#define THREADS 128
#define N (33 * 1024)

extern "C" __global__ void scale(float *y, const float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i];
}

__global__ void partial_sums(float *sums, const float *x, const int *idx, int n)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	int i = block.group_index().x * block.size() + block.thread_rank();
	float s = cg::reduce(warp, i < n ? x[idx[i]] : 0.0f, cg::plus<float>());
	if (warp.thread_rank() == 0)
		sums[i / 32] = s;
}

extern "C" {
float run(void)
{
	float *x, *y, *sums, total = 0;
	int *idx;

	cudaMalloc((void **)&x, N * sizeof(float));
	cudaMalloc((void **)&y, N * sizeof(float));
	cudaMallocManaged(&sums, N / 32 * sizeof(float));
	cudaMallocHost(&idx, N * sizeof(int));
	scale<<<N / THREADS, THREADS>>>(y, x, 2.0f, N);
	partial_sums<<<N / THREADS, THREADS>>>(sums, y, idx, N);
	cudaDeviceSynchronize();
	for (int i = 0; i < N / 32; i++)
		total += sums[i];
	cudaFree(x);
	cudaFree(y);
	cudaFree(sums);
	cudaFreeHost(idx);
	return total;
}
}

int main()
{
	printf("%f\n", run());
	return 0;
}
