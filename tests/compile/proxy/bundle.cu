// A HIP source as hipify leaves it (.cu kept), checked end to end: hipport
// check --bundle, then run.sh builds its harness with nvcc as the reference
// and as the nvidia-proxy port.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void warp_scan(const float *in, float *out, unsigned long long *votes, int n)
{
	auto tile = cg::tiled_partition<32>(cg::this_thread_block());
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? __bfloat162float(__float2bfloat16(in[i])) : 0.0f;
	for (int d = 1; d < 32; d *= 2) {
		float u = __shfl_up(v, d, 32);
		if ((threadIdx.x & 31) >= d)
			v += u;
	}
	float total = cg::reduce(tile, v, cg::plus<>());
	unsigned long long b = __ballot(v > 0.0f);
	if (i < n)
		out[i] = v + (__any(total > 0.0f) ? 0.0f : 0.0f) + (__all(1) ? 0.0f : 1.0f);
	if ((threadIdx.x & 31) == 0 && i < n)
		votes[i / 32] = b;
}
