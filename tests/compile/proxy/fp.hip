// fp16 and bf16 through HIP's headers: __half, __hip_bfloat16 (hip_bf16.h,
// HIP 6.0) and hip_bfloat16 (hip_bfloat16.h, older HIP), and their intrinsics.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <hip/hip_bfloat16.h>

__global__ void halves(const float *in, __half *h, __hip_bfloat16 *b, hip_bfloat16 *c, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	__half x = __float2half(in[i]);
	__half y = __hadd(x, __float2half(1.0f));
	__half2 x2 = __halves2half2(x, y);
	x2 = __hmul2(x2, x2);
	h[i] = __hmul(y, __low2half(x2));
	__hip_bfloat16 bx = __float2bfloat16(in[i]);
	__hip_bfloat162 b2 = __floats2bfloat162_rn(in[i], 2.0f);
	b[i] = __hadd(bx, __float2bfloat16(0.5f));
	hip_bfloat16 cx(in[i]);
	c[i] = cx;
	out[i] = __half2float(h[i]) + __bfloat162float(b[i]) + __low2float(b2) + static_cast<float>(cx);
}

int main()
{
	__half *h;
	hipMalloc(&h, 16 * sizeof(__half));
	hipFree(h);
	return 0;
}
