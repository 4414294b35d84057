// Row reductions: row sum, softmax and a non-zero count.
//
// One block handles one row.  Values are reduced within each warp through
// register shuffles first, then across warps through a shared array with one
// slot per warp (a block has at most 1024 / 32 = 32 warps).
#include <cmath>

#include "fastops/common.cuh"
#include "fastops/ops.h"

namespace fastops {
namespace {

// Tree reduction; only lane 0 holds the full sum afterwards.
__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// Butterfly reduction; every lane ends up with the maximum.
__device__ __forceinline__ float warp_allreduce_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

// Sum over the whole block, returned to every thread.
template <int BLOCK>
__device__ float block_reduce_sum(float v) {
  static_assert(BLOCK % WARP_SIZE == 0 && BLOCK <= 1024,
                "BLOCK must be a multiple of the warp size");
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  v = warp_reduce_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = lane < BLOCK / WARP_SIZE ? partial[lane] : 0.0f;
    v = warp_reduce_sum(v);
    __syncwarp();  // all lanes have read partial[] before slot 0 is reused
    if (lane == 0) partial[0] = v;
  }
  __syncthreads();
  const float total = partial[0];
  __syncthreads();  // partial[] is written again by the next call
  return total;
}

// Maximum over the whole block, returned to every thread.
template <int BLOCK>
__device__ float block_reduce_max(float v) {
  __shared__ float partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;

  v = warp_allreduce_max(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();

  // Every warp folds the per-warp maxima itself, so no broadcast is needed.
  v = lane < BLOCK / WARP_SIZE ? partial[lane] : -INFINITY;
  v = warp_allreduce_max(v);
  __syncthreads();
  return v;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    row_sum_kernel(const float* __restrict__ in, float* __restrict__ out,
                   int cols) {
  const float* row = in + size_t(blockIdx.x) * cols;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) acc += row[c];
  acc = block_reduce_sum<BLOCK>(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    softmax_kernel(const float* __restrict__ in, float* __restrict__ out,
                   int cols) {
  const float* row_in = in + size_t(blockIdx.x) * cols;
  float* row_out = out + size_t(blockIdx.x) * cols;

  float row_max = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    row_max = fmaxf(row_max, row_in[c]);
  row_max = block_reduce_max<BLOCK>(row_max);

  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    sum += __expf(row_in[c] - row_max);
  sum = block_reduce_sum<BLOCK>(sum);

  const float inv_sum = 1.0f / sum;
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    row_out[c] = __expf(row_in[c] - row_max) * inv_sum;
}

// Each warp walks the input in 32-element chunks.  The loop condition depends
// only on the chunk base, so all lanes take part in every ballot.
__global__ void count_nonzero_kernel(const float* __restrict__ in, int64_t n,
                                     unsigned int* __restrict__ count) {
  const int lane = threadIdx.x & 31;
  const int64_t warp_id = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int64_t num_warps = (int64_t(gridDim.x) * blockDim.x) >> 5;

  unsigned int local = 0;
  for (int64_t base = warp_id * WARP_SIZE; base < n;
       base += num_warps * WARP_SIZE) {
    const int64_t i = base + lane;
    const unsigned int nonzero = __ballot_sync(0xffffffff, i < n && in[i] != 0.0f);
    local += __popc(nonzero);
  }
  if (lane == 0 && local != 0) atomicAdd(count, local);
}

}  // namespace

void row_sum(const float* in, float* out, int rows, int cols,
             cudaStream_t stream) {
  if (rows <= 0) return;
  row_sum_kernel<256><<<rows, 256, 0, stream>>>(in, out, cols);
  CUDA_CHECK(cudaGetLastError());
}

void softmax(const float* in, float* out, int rows, int cols,
             cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  // Short rows would leave most of a 256-thread block idle.
  if (cols <= 128)
    softmax_kernel<128><<<rows, 128, 0, stream>>>(in, out, cols);
  else
    softmax_kernel<256><<<rows, 256, 0, stream>>>(in, out, cols);
  CUDA_CHECK(cudaGetLastError());
}

void count_nonzero(const float* in, int64_t n, unsigned int* count,
                   cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned int), stream));
  if (n <= 0) return;
  constexpr int kBlock = 256;  // must be a multiple of WARP_SIZE
  count_nonzero_kernel<<<grid_size(n, kBlock), kBlock, 0, stream>>>(in, n, count);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace fastops
