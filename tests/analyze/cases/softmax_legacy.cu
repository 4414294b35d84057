// Attention softmax and layer norm in the style of older inference engines:
// fixed 32-lane warps, one shared slot per warp, fp16 I/O, the fast exp.
// Several families meet in the same functions here.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define WARP_SIZE 32 /* expect: WARP-002 */

template <typename T>
__inline__ __device__ T warpReduceSum(T val)
{
  for (int mask = 16; mask > 0; mask >>= 1) // expect: WARP-003
    val += __shfl_xor_sync(0xffffffff, val, mask);
  return val;
}

template <typename T>
__inline__ __device__ T warpReduceMax(T val)
{
  for (int mask = 16; mask > 0; mask >>= 1) // expect: WARP-003
    val = max(val, __shfl_xor_sync(0xffffffff, val, mask));
  return val;
}

template <typename T>
__inline__ __device__ T blockReduceSum(T val)
{
  static __shared__ T shared[32]; // expect: WARP-008
  const int lane = threadIdx.x & 31; // expect: WARP-001
  const int wid = threadIdx.x >> 5; // expect: WARP-001
  val = warpReduceSum<T>(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (lane * WARP_SIZE < (int)blockDim.x) ? shared[lane] : (T)0.0f;
  return warpReduceSum<T>(val);
}

template <typename T>
__inline__ __device__ T blockReduceMax(T val)
{
  static __shared__ T shared[32]; // expect: WARP-008
  const int lane = threadIdx.x % 32; // expect: WARP-001
  const int wid = threadIdx.x / 32; // expect: WARP-001
  val = warpReduceMax<T>(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (lane * WARP_SIZE < (int)blockDim.x) ? shared[lane] : (T)-1e20f;
  return warpReduceMax<T>(val);
}

// One block per (batch, head, query) row of the attention scores. A minimum
// of one block (one wave per EU on AMD) asks nothing: no ARCH-003.
__global__ void __launch_bounds__(1024, 1) attn_softmax_half(const __half *__restrict__ qk,
                                                             const __half *__restrict__ attn_mask,
                                                             __half *__restrict__ probs, int seq_len,
                                                             int rows_per_batch, float scale)
{
  __shared__ float s_max, s_sum;
  const size_t row = blockIdx.x;
  const __half one = __float2half(1.0f);
  const __half neg = __float2half(-10000.0f);
  float local_max = -1e20f;
  for (int i = threadIdx.x; i < seq_len; i += blockDim.x) {
    const __half bias = (one - attn_mask[row / rows_per_batch * seq_len + i]) * neg; // expect: PREC-001
    const float v = __half2float(qk[row * seq_len + i]) * scale + __half2float(bias);
    local_max = fmaxf(local_max, v);
  }
  const float m = blockReduceMax<float>(local_max);
  if (threadIdx.x == 0) s_max = m;
  __syncthreads();
  float local_sum = 0.0f;
  for (int i = threadIdx.x; i < seq_len; i += blockDim.x)
    local_sum += __expf(__half2float(qk[row * seq_len + i]) * scale - s_max); // expect: PREC-002
  const float s = blockReduceSum<float>(local_sum);
  if (threadIdx.x == 0) s_sum = s + 1e-6f;
  __syncthreads();
  const float inv = __fdividef(1.0f, s_sum); // expect: PREC-002
  for (int i = threadIdx.x; i < seq_len; i += blockDim.x)
    probs[row * seq_len + i] = __float2half(expf(__half2float(qk[row * seq_len + i]) * scale - s_max) * inv);
}

// Layer norm over fp16 rows; half2 math where the architecture has it.
__global__ void layernorm_half(const __half *__restrict__ x, const __half *__restrict__ gamma,
                               const __half *__restrict__ beta, __half *__restrict__ y, int n)
{
  __shared__ float s_mean, s_rstd;
  const __half *row_in = &x[(size_t)blockIdx.x * n];
  __half *row_out = &y[(size_t)blockIdx.x * n];
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += __half2float(row_in[i]);
  sum = blockReduceSum<float>(sum);
  if (threadIdx.x == 0) s_mean = sum / n;
  __syncthreads();
  float var = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const float d = __half2float(row_in[i]) - s_mean;
    var += d * d;
  }
  var = blockReduceSum<float>(var);
  if (threadIdx.x == 0) s_rstd = rsqrtf(var / n + 1e-5f); // expect: PREC-006
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const float v = (__half2float(row_in[i]) - s_mean) * s_rstd;
#if __CUDA_ARCH__ >= 530 /* expect: ARCH-001 */
    row_out[i] = __hfma(__float2half(v), gamma[i], beta[i]);
#else
    row_out[i] = __float2half(v * __half2float(gamma[i]) + __half2float(beta[i]));
#endif
  }
}
