// hipCUB before the HIP runtime header: block, warp and device reductions and
// the functors CCCL 3 dropped from cub:: (hipcub::Sum, hipcub::Max).
#include <hipcub/hipcub.hpp>
#include <hip/hip_runtime.h>

template <int BLOCK>
__global__ void block_reduce(const float *in, float *out)
{
	typedef hipcub::BlockReduce<float, BLOCK> Reduce;
	typedef hipcub::WarpReduce<float> WarpReduce;
	__shared__ typename Reduce::TempStorage temp;
	__shared__ typename WarpReduce::TempStorage wtemp[BLOCK / 32];
	float v = in[blockIdx.x * BLOCK + threadIdx.x];
	float s = Reduce(temp).Sum(v);
	__syncthreads();
	float mx = Reduce(temp).Reduce(v, hipcub::Max());
	float w = WarpReduce(wtemp[threadIdx.x / 32]).Reduce(v, hipcub::Sum());
	if (threadIdx.x == 0)
		out[blockIdx.x] = s + mx + w;
}

hipError_t device_sum(const float *in, float *out, int n, hipStream_t stream)
{
	size_t bytes = 0;
	void *temp = nullptr;
	hipError_t e = hipcub::DeviceReduce::Sum(nullptr, bytes, in, out, n, stream);

	if (e == hipSuccess)
		e = hipMalloc(&temp, bytes);
	if (e == hipSuccess)
		e = hipcub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
	hipLaunchKernelGGL(HIP_KERNEL_NAME(block_reduce<256>), dim3(1), dim3(256), 0, stream, in, out);
	hipFree(temp);
	return e;
}
