// The port of a PyTorch CUDA extension as PyTorch's ROCm build hipifies it
// (hipify_torch v1: the MasqueradingAsCUDA names; v2's c10/hip headers too).
#include <torch/extension.h>
#include <ATen/hip/HIPContext.h>
#include <ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h>
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <ATen/hip/impl/HIPCachingAllocatorMasqueradingAsCUDA.h>
#include <c10/hip/HIPGuard.h>
#include <c10/hip/HIPStream.h>
#include <c10/hip/HIPException.h>
#include <hip/hip_runtime.h>

template <typename scalar_t>
__global__ void scale_kernel(const scalar_t *__restrict__ in, scalar_t *__restrict__ out, float s, int64_t n)
{
	int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = static_cast<scalar_t>(static_cast<float>(in[i]) * s);
}

torch::Tensor scale(torch::Tensor in, double s)
{
	const at::hip::OptionalHIPGuardMasqueradingAsCUDA guard(device_of(in));
	at::hip::HIPGuardMasqueradingAsCUDA guard2(in.device());
	c10::hip::HIPGuard guard3(in.device().index());
	auto out = torch::empty_like(in);
	hipStream_t stream = at::hip::getCurrentHIPStreamMasqueradingAsCUDA();
	hipStream_t stream2 = c10::hip::getCurrentHIPStream().stream();
	at::hip::HIPStreamMasqueradingAsCUDA s3 = at::hip::getDefaultHIPStreamMasqueradingAsCUDA(in.device().index());
	c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::recordStreamMasqueradingAsCUDA(out.storage().data_ptr(), s3);
	C10_HIP_CHECK(hipStreamSynchronize(stream2));
	const int64_t n = in.numel();
	AT_DISPATCH_FLOATING_TYPES_AND_HALF(in.scalar_type(), "scale", [&] {
		hipLaunchKernelGGL(scale_kernel<scalar_t>, dim3((n + 255) / 256), dim3(256), 0, stream,
				   in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), (float)s, n);
	});
	C10_HIP_KERNEL_LAUNCH_CHECK();
	return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
	m.def("scale", &scale, "scale (HIP port)");
}
