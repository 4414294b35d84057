#include <cuda_runtime.h>
#include <cuda_bf16.h>

// bf16 with a HIP that has <hip/hip_bf16.h>: the types become __hip_bfloat16
// and __hip_bfloat162, the intrinsics keep their names.
__global__ void scale(const __nv_bfloat16 *in, __nv_bfloat162 *out, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = __bfloat162float(in[i]) * s;
		__nv_bfloat16 lo = __float2bfloat16_rn(x);
		__nv_bfloat16 hi = __float2bfloat16(x + 1.0f);
		float2 f = __bfloat1622float2(__halves2bfloat162(lo, hi));
		out[i] = __float22bfloat162_rn(f);
		unsigned short bits = 0x3f80;
		out[i].x = __ushort_as_bfloat16(bits);
	}
}
