#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>

// A file that calls cuBLAS and has a bf16 kernel: the type is HIP's device
// bf16 (its intrinsics take it), not hipBLAS's hip_bfloat16, which
// hipify-clang writes for the whole file: __hmul has no overload for it.
__global__ void scale(__nv_bfloat16 *y, const __nv_bfloat16 *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __hmul(x[i], __float2bfloat16(2.0f));
}

cublasStatus_t gemm(cublasHandle_t h, const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *c, int n)
{
	const float one = 1.0f, zero = 0.0f;
	return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16BF, n, b, CUDA_R_16BF, n, &zero, c,
			    CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
