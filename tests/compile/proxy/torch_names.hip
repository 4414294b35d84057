// PyTorch's ROCm names in a port (hipify_torch v1 and v2), built here against
// stand-ins of torch's headers (fake-torch/); torch_ext.hip is the same
// against the real torch where one is installed.
#include <ATen/hip/HIPContext.h>
#include <ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h>
#include <ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h>
#include <ATen/hip/impl/HIPCachingAllocatorMasqueradingAsCUDA.h>
#include <c10/hip/HIPCachingAllocator.h>
#include <c10/hip/HIPGuard.h>
#include <c10/hip/HIPStream.h>
#include <c10/hip/HIPException.h>
#include <hip/hip_runtime.h>

__global__ void fill(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = 1.0f;
}

void run(float *x, int n, at::Device device, c10::DataPtr &ptr)
{
	const at::hip::OptionalHIPGuardMasqueradingAsCUDA guard(device);
	at::hip::HIPGuardMasqueradingAsCUDA guard2(device);
	c10::hip::HIPGuard guard3(device.index());
	c10::hip::OptionalHIPGuard guard4(device);
	hipStream_t stream = at::hip::getCurrentHIPStreamMasqueradingAsCUDA();
	at::hip::HIPStreamMasqueradingAsCUDA s2 = at::hip::getDefaultHIPStreamMasqueradingAsCUDA(device.index());
	c10::hip::HIPStream s3 = c10::hip::getCurrentHIPStream(device.index());
	at::hip::HIPStreamMasqueradingAsCUDA s4 = at::hip::getStreamFromPoolMasqueradingAsCUDA(true);
	c10::hip::HIPStream s5 = c10::hip::getStreamFromPool();
	at::hip::HIPStreamGuardMasqueradingAsCUDA sguard(s2);
	at::hip::setCurrentHIPStreamMasqueradingAsCUDA(s4);
	c10::hip::setCurrentHIPStream(s5);
	c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::recordStreamMasqueradingAsCUDA(ptr, s2);
	void *scratch = c10::hip::HIPCachingAllocator::raw_alloc(64);
	c10::hip::HIPCachingAllocator::raw_delete(scratch);
	C10_HIP_CHECK(hipStreamSynchronize(s3.stream()));
	C10_HIP_CHECK_WARN(hipStreamSynchronize(stream));
	hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, stream, x, n);
	C10_HIP_KERNEL_LAUNCH_CHECK();
	C10_HIP_CLEAR_ERROR();
}
