// A PyTorch extension's kernel file: streams, guards, ATen folders and c10
// checks follow PyTorch's own hipify (before 2.11: ...MasqueradingAsCUDA).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/IndexUtils.cuh>
#include <ATen/native/cuda/block_reduce.cuh>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAException.h>
#include <cub/block/block_scan.cuh>
#include "local_helpers.cuh"

__global__ void scale_kernel(float *x, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= s;
}

void scale(at::Tensor x, double s)
{
	const at::cuda::OptionalCUDAGuard guard(device_of(x));
	c10::cuda::CUDAGuard other(x.device());
	cudaStream_t stream = at::cuda::getCurrentCUDAStream();
	auto pool = at::cuda::getStreamFromPool();
	scale_kernel<<<(x.numel() + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), (float)s, x.numel());
	C10_CUDA_KERNEL_LAUNCH_CHECK();
	C10_CUDA_CHECK(cudaStreamSynchronize(stream));
	// a member and a local type spelled like a PyTorch name stay
	other.getCurrentCUDAStream();
}
