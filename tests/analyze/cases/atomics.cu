// Atomics as training and inference kernels use them: fp16 gradient scatter,
// 16-bit compare-and-swap, float accumulation into global and shared memory,
// and integer counters (which need nothing).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// Embedding backward: each block scatters one row of the output gradient into
// the fp16 weight gradient of its token (tokens repeat, hence the atomics).
__global__ void embedding_backward_half(const int *__restrict__ indices,
                                        const __half *__restrict__ grad_out,
                                        __half *grad_weight, int num_indices, int dim)
{
  const int row = blockIdx.x;
  if (row >= num_indices) return;
  const int token = indices[row];
  for (int d = threadIdx.x; d < dim; d += blockDim.x) {
    const __half g = grad_out[(size_t)row * dim + d];
    atomicAdd(&grad_weight[(size_t)token * dim + d], g); // expect: ATOM-001
  }
}

// Bias gradient on packed half2 columns: partial sums per block, then one
// atomic per column pair.
__global__ void bias_grad_half2(const __half2 *__restrict__ grad, __half2 *bias_grad,
                                int rows, int cols2)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols2) return;
  __half2 acc = __float2half2_rn(0.0f);
  for (int r = blockIdx.y; r < rows; r += gridDim.y)
    acc = __hadd2(acc, grad[(size_t)r * cols2 + c]);
  atomicAdd(&bias_grad[c], acc); // expect: ATOM-001
}

// Atomic max of a half, built on the 16-bit atomicCAS (used for the amax of
// fp16 quantization scales).
__device__ __half atomic_max_half(__half *address, __half val)
{
  unsigned short *addr = reinterpret_cast<unsigned short *>(address);
  unsigned short old = *addr;
  unsigned short assumed;
  do {
    assumed = old;
    if (__hge(__ushort_as_half(assumed), val)) break;
    old = atomicCAS(addr, assumed, __half_as_ushort(val)); // expect: ATOM-002
  } while (assumed != old);
  return __ushort_as_half(old);
}

__global__ void absmax_half(const __half *__restrict__ x, __half *amax, int n)
{
  float m = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    m = fmaxf(m, fabsf(__half2float(x[i])));
  atomic_max_half(amax, __float2half(m));
}

// First occurrence of each id, with a 16-bit "seen" flag per id.
__global__ void mark_first_seen(const int *__restrict__ ids, unsigned short *seen,
                                int *first_pos, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int id = ids[i];
  const unsigned short prev = atomicCAS(&seen[id], (unsigned short)0, (unsigned short)1); // expect: ATOM-002
  if (prev == 0) first_pos[id] = i;
}

// Weighted histogram (attention-score binning): float weights, privatized
// in shared memory, then merged into the global histogram.
__global__ void weighted_histogram(const float *__restrict__ values,
                                   const float *__restrict__ weights, float *hist,
                                   int nbins, float lo, float hi, int n)
{
  extern __shared__ float s_hist[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) s_hist[b] = 0.0f;
  __syncthreads();
  const float scale = nbins / (hi - lo);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int bin = (int)((values[i] - lo) * scale);
    bin = min(max(bin, 0), nbins - 1);
    atomicAdd(&s_hist[bin], weights[i]); // expect: ATOM-005
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    atomicAdd(&hist[b], s_hist[b]); // expect: ATOM-005
}

// Cross-entropy loss summed in double, one atomic per block.
__global__ void nll_loss_sum(const float *__restrict__ logprobs, const int *__restrict__ target,
                             double *loss_sum, int batch, int classes)
{
  __shared__ double s_loss;
  if (threadIdx.x == 0) s_loss = 0.0;
  __syncthreads();
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < batch) {
    const double l = -(double)logprobs[(size_t)b * classes + target[b]];
    atomicAdd(&s_loss, l); // expect: ATOM-005
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(loss_sum, s_loss); // expect: ATOM-005
}

// Byte histogram with integer atomics: no finding of any kind.
__global__ void byte_histogram(const unsigned char *__restrict__ data, unsigned int *counts,
                               int *max_count, size_t n)
{
  __shared__ unsigned int s_counts[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) s_counts[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&s_counts[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    atomicAdd(&counts[b], s_counts[b]);
    atomicMax(max_count, (int)s_counts[b]);
  }
}

// Host-visible progress counter (mapped pinned memory): 32-bit, system scope.
__global__ void report_progress(int *host_progress, int *host_flag)
{
  if (threadIdx.x == 0) {
    atomicAdd_system(host_progress, 1); // expect: ATOM-003
    atomicCAS_system(host_flag, 0, 1); // expect: ATOM-003
  }
}
