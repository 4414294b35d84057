// Cooperative groups through HIP's header: tiles, cg::reduce (CUDA needs
// cooperative_groups/reduce.h for it), HIP's cg::plus<>, grid sync.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float *in, float *out, const int *iin, int *iout, int n)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? in[i] : 0.0f;
	int iv = i < n ? iin[i] : 0;
	float s = cg::reduce(tile, v, cg::plus<float>());
	float t = cooperative_groups::reduce(tile, v, cg::plus<>());
	auto op = cg::greater<>();
	float mx = cg::reduce(tile, v, op);
	float mn = cg::reduce(tile, v, cg::less<>());
	int bits = cg::reduce(tile, iv, cg::bit_or<>()) + cg::reduce(tile, iv, cg::plus<int>());
	cg::thread_group g = cg::tiled_partition(block, 16);
	g.sync();
	block.sync();
	if (tile.thread_rank() == 0) {
		atomicAdd(out, s + t + mx + mn);
		atomicAdd(iout, bits);
	}
}

__global__ void grid_step(float *x, int n)
{
	cg::grid_group grid = cg::this_grid();
	for (int i = grid.thread_rank(); i < n; i += grid.size())
		x[i] += 1.0f;
	grid.sync();
	if (grid.thread_rank() == 0)
		x[0] = 0.0f;
}

hipError_t launch(float *x, int *ix, int n)
{
	void *args[] = { &x, &n };
	hipError_t e = hipLaunchCooperativeKernel((const void *)grid_step, dim3(4), dim3(256), args, 0, 0);

	if (e != hipSuccess)
		return e;
	hipLaunchKernelGGL(block_sum, dim3(1), dim3(256), 0, 0, x, x, ix, ix, n);
	return hipGetLastError();
}
