// bfloat16 kernels of a training step: mixed-precision GEMV epilogue,
// residual add, gradient scatter into bf16 weights, packed bf162 updates.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

// Load helper: the conversion intrinsics are fine, only the type is noted.
__device__ __forceinline__ float load_bf16(const __nv_bfloat16 *p, size_t i) // expect: PREC-004
{
  return __bfloat162float(p[i]);
}

// y = act(W x + b) with fp32 accumulation, bf16 in and out.
__global__ void gemv_bias_bf16(const __nv_bfloat16 *__restrict__ w,
                               const __nv_bfloat16 *__restrict__ x,
                               const __nv_bfloat16 *__restrict__ bias,
                               __nv_bfloat16 *__restrict__ y, int rows, int cols)
{
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c)
    acc += load_bf16(w, (size_t)r * cols + c) * load_bf16(x, c);
  acc += __bfloat162float(bias[r]);
  y[r] = __float2bfloat16(fmaxf(acc, 0.0f));
}

// Residual connection through the bf16 operators.
__global__ void residual_bf16(const __nv_bfloat16 *__restrict__ x,
                              const __nv_bfloat16 *__restrict__ h,
                              __nv_bfloat16 *__restrict__ out, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + h[i]; // expect: PREC-001
}

// Scale by a bf16 factor: operator and intrinsic versions.
__global__ void scale_bf16(__nv_bfloat16 *__restrict__ v, __nv_bfloat16 *__restrict__ v_exact,
                           __nv_bfloat16 alpha, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  v[i] = v[i] * alpha; // expect: PREC-001
  v_exact[i] = __float2bfloat16(__bfloat162float(v_exact[i]) * __bfloat162float(alpha));
}

// Embedding backward in bf16: duplicate tokens collide, hence the atomic.
__global__ void embedding_backward_bf16(const int *__restrict__ tokens,
                                        const float *__restrict__ grad_out,
                                        __nv_bfloat16 *grad_weight, int n, int dim)
{
  const int row = blockIdx.x;
  if (row >= n) return;
  const int t = tokens[row];
  for (int d = threadIdx.x; d < dim; d += blockDim.x) {
    const __nv_bfloat16 g = __float2bfloat16(grad_out[(size_t)row * dim + d]);
    atomicAdd(&grad_weight[(size_t)t * dim + d], g); // expect: ATOM-001
  }
}

// Packed bf162 gradient accumulation (two columns per thread).
__global__ void bias_grad_bf162(const float2 *__restrict__ grad, __nv_bfloat162 *bias_grad,
                                int rows, int cols2)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols2) return;
  float2 acc = make_float2(0.0f, 0.0f);
  for (int r = 0; r < rows; ++r) {
    acc.x += grad[(size_t)r * cols2 + c].x;
    acc.y += grad[(size_t)r * cols2 + c].y;
  }
  const __nv_bfloat162 packed = __floats2bfloat162_rn(acc.x, acc.y);
  atomicAdd(&bias_grad[c], packed); // expect: ATOM-001
}
