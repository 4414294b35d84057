// A PyTorch-style operator without torch's headers: at::Tensor is unknown to
// the parse, so the wrapper's parameters are read from its signature, and
// t.numel() is a value the program gives at run time.
#include <ATen/ATen.h>

__global__ void scale_kernel(int numel, const float *a, double c, float *result)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < numel) result[i] = a[i] * c;
}

at::Tensor scale_cuda(const at::Tensor &a, double c)
{
	at::Tensor a_contig = a.contiguous();
	at::Tensor result = at::empty(a_contig.sizes(), a_contig.options());
	const float *a_ptr = a_contig.data_ptr<float>();
	float *result_ptr = result.data_ptr<float>();
	int numel = a_contig.numel();
	scale_kernel<<<(numel + 255) / 256, 256>>>(numel, a_ptr, c, result_ptr);
	return result;
}
