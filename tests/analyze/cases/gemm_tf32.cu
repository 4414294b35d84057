// cuBLAS GEMMs of a training loop: TF32 tensor-op math for the forward pass,
// full fp32 for the reference check.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cstdio>

#define CHECK_CUBLAS(call)                                                  \
  do {                                                                      \
    cublasStatus_t st_ = (call);                                            \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                     \
      std::fprintf(stderr, "cublas error %d at line %d\n", (int)st_, __LINE__); \
      return -1;                                                            \
    }                                                                       \
  } while (0)

// C = A * B, column-major, m x k times k x n.
int gemm_forward(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_CUBLAS(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH)); // expect: PREC-003
  CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, m, B, k, &beta, C, m));
  return 0;
}

// The same product through cublasGemmEx with an explicit compute type.
int gemm_forward_ex(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
  const float alpha = 1.0f, beta = 0.0f;
  const cublasComputeType_t compute = CUBLAS_COMPUTE_32F_FAST_TF32; // expect: PREC-003
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_32F, m, B,
                            CUDA_R_32F, k, &beta, C, CUDA_R_32F, m, compute, CUBLAS_GEMM_DEFAULT));
  return 0;
}

// Reference: default math mode and plain fp32 compute.
int gemm_reference(cublasHandle_t handle, const float *A, const float *B, float *C, int m, int n, int k)
{
  const float alpha = 1.0f, beta = 0.0f;
  CHECK_CUBLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_32F, m, B,
                            CUDA_R_32F, k, &beta, C, CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
  return 0;
}

__global__ void max_abs_diff(const float *a, const float *b, float *out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fabsf(a[i] - b[i]);
}
