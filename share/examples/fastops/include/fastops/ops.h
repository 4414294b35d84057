// Public host API of the fastops library.
//
// Unless stated otherwise, pointers are device pointers, tensors are
// contiguous and row-major, and every op is enqueued on `stream` without
// synchronising the host.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>
#include <cuda_fp16.h>

namespace fastops {

// out[i] = x[i] + y[i] * scale for i in [0, n).  fp16 storage and math.
void scaled_add(const __half* x, const __half* y, __half* out, float scale,
                int64_t n, cudaStream_t stream);

// out[r] = sum_c in[r, c] for a [rows, cols] matrix.
void row_sum(const float* in, float* out, int rows, int cols,
             cudaStream_t stream);

// Numerically stable softmax along each row of a [rows, cols] matrix.
void softmax(const float* in, float* out, int rows, int cols,
             cudaStream_t stream);

// *count = number of non-zero entries in in[0, n).
void count_nonzero(const float* in, int64_t n, unsigned int* count,
                   cudaStream_t stream);

// Histograms over bins [edges[b], edges[b + 1]).  Values outside
// [edges[0], edges[num_bins]) and NaNs are dropped.
constexpr int kMaxBins = 64;

// Uploads num_bins + 1 ascending edges from host memory.  Must be called
// before histogram() or weighted_histogram().
void set_bin_edges(const float* host_edges, int num_bins);

// bins[b] = number of values in bin b.
void histogram(const float* in, int64_t n, int num_bins, unsigned int* bins,
               cudaStream_t stream);

// bins[b] = sum of weights[i] over values in bin b, accumulated in fp16.
void weighted_histogram(const float* in, const __half* weights, int64_t n,
                        int num_bins, __half* bins, cudaStream_t stream);

// out[c, r] = in[r, c]; in is [rows, cols], out is [cols, rows].
void transpose(const float* in, float* out, int rows, int cols,
               cudaStream_t stream);

// Prints name, compute capability and limits of a device.
void print_device_info(int device);

// C = A * B (or A * B^T when b_transposed, i.e. B in nn.Linear weight layout)
// with cuBLAS.  A is [m, k], B is [k, n] or [n, k], C is [m, n].  Pointers are
// HOST pointers; the call is synchronous and returns the GEMM time in ms.
float gemm(const float* A, const float* B, float* C, int m, int n, int k,
           bool b_transposed);

}  // namespace fastops
