// An original CUDA source: the reference build force-includes the same
// hip_compat.h, whose renames (__any, __all, __ballot) must leave CUDA's
// headers, CUB and libcu++ working.
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/tuple>
#include <cuda/std/functional>

__global__ void votes(const float *in, unsigned *out)
{
	namespace cg = cooperative_groups;
	auto tile = cg::tiled_partition<32>(cg::this_thread_block());
	float v = in[threadIdx.x];
	unsigned b = __ballot_sync(0xffffffffu, v > 0.0f);
	int any = __any_sync(0xffffffffu, v > 0.0f), all = __all_sync(0xffffffffu, v > 0.0f);
	float s = cg::reduce(tile, v, cg::plus<float>());
	cuda::std::tuple<int, float> t(any + all, s);
	typedef cub::WarpReduce<float> WarpReduce;
	__shared__ typename WarpReduce::TempStorage temp;
	float w = WarpReduce(temp).Sum(v);
	out[threadIdx.x] = b + cuda::std::get<0>(t) + (unsigned)cuda::std::get<1>(t) + (unsigned)w;
}
