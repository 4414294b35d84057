// hipCUB's sub-headers after the HIP runtime and bf16 headers.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hipcub/block/block_load.hpp>
#include <hipcub/block/block_reduce.hpp>
#include <hipcub/warp/warp_reduce.hpp>

__global__ void load_reduce(const float *in, float *out)
{
	typedef hipcub::BlockLoad<float, 128, 4, hipcub::BLOCK_LOAD_TRANSPOSE> Load;
	typedef hipcub::BlockReduce<float, 128> Reduce;
	__shared__ union {
		typename Load::TempStorage load;
		typename Reduce::TempStorage reduce;
	} temp;
	float items[4];
	Load(temp.load).Load(in + blockIdx.x * 512, items);
	__syncthreads();
	float s = Reduce(temp.reduce).Sum(items);
	if (threadIdx.x == 0)
		out[blockIdx.x] = s + __bfloat162float(__float2bfloat16(s));
}
