// Histograms over (possibly non-uniform) bin edges held in constant memory.
#include "fastops/common.cuh"
#include "fastops/ops.h"

namespace fastops {
namespace {

__constant__ float c_bin_edges[kMaxBins + 1];

constexpr int kBlock = 256;
// Every block flushes its private histogram with one global atomic per bin,
// so keep the grid small and let the grid-stride loop do the rest.
constexpr int kMaxBlocks = 256;

// Returns b with edges[b] <= v < edges[b + 1], or -1 when v is out of range.
__device__ __forceinline__ int find_bin(float v, int num_bins) {
  if (!(v >= c_bin_edges[0] && v < c_bin_edges[num_bins])) return -1;  // NaN too
  int lo = 0, hi = num_bins;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (v >= c_bin_edges[mid])
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// Counts go to a per-block copy in shared memory first; only the non-empty
// bins of each block are then added to the global histogram.
__global__ void histogram_kernel(const float* __restrict__ in, int64_t n,
                                 int num_bins, unsigned int* __restrict__ bins) {
  __shared__ unsigned int local_bins[kMaxBins];
  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();

  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const int b = find_bin(in[i], num_bins);
    if (b >= 0) atomicAdd(&local_bins[b], 1u);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
    const unsigned int c = local_bins[b];
    if (c != 0) atomicAdd(&bins[b], c);
  }
}

// fp16 accumulation straight into global memory (native half atomics need
// sm_70 or newer).  Sums in fp16 are order dependent once they exceed the
// precision of the format; callers keep histograms small.
__global__ void weighted_histogram_kernel(const float* __restrict__ in,
                                          const __half* __restrict__ weights,
                                          int64_t n, int num_bins,
                                          __half* __restrict__ bins) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const int b = find_bin(in[i], num_bins);
    if (b >= 0) atomicAdd(&bins[b], weights[i]);
  }
}

void check_num_bins(int num_bins) {
  if (num_bins < 1 || num_bins > kMaxBins) {
    std::fprintf(stderr, "fastops: num_bins must be in [1, %d], got %d\n",
                 kMaxBins, num_bins);
    std::exit(EXIT_FAILURE);
  }
}

}  // namespace

void set_bin_edges(const float* host_edges, int num_bins) {
  check_num_bins(num_bins);
  CUDA_CHECK(cudaMemcpyToSymbol(c_bin_edges, host_edges,
                                (num_bins + 1) * sizeof(float)));
}

void histogram(const float* in, int64_t n, int num_bins, unsigned int* bins,
               cudaStream_t stream) {
  check_num_bins(num_bins);
  CUDA_CHECK(cudaMemsetAsync(bins, 0, num_bins * sizeof(unsigned int), stream));
  if (n <= 0) return;
  histogram_kernel<<<grid_size(n, kBlock, kMaxBlocks), kBlock, 0, stream>>>(
      in, n, num_bins, bins);
  CUDA_CHECK(cudaGetLastError());
}

void weighted_histogram(const float* in, const __half* weights, int64_t n,
                        int num_bins, __half* bins, cudaStream_t stream) {
  check_num_bins(num_bins);
  // All-zero bits are +0.0 in fp16 as well.
  CUDA_CHECK(cudaMemsetAsync(bins, 0, num_bins * sizeof(__half), stream));
  if (n <= 0) return;
  weighted_histogram_kernel<<<grid_size(n, kBlock, kMaxBlocks), kBlock, 0,
                              stream>>>(in, weights, n, num_bins, bins);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace fastops
