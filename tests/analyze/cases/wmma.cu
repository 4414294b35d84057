// Tensor-core GEMM tiles with the wmma API: fp16 inputs with fp32
// accumulation, and a TF32 variant. ARCH-002 is reported once per file: on
// the #include <mma.h> (the uses of nvcuda::wmma below carry no mark).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h> /* expect: ARCH-002 */

constexpr int WM = 16;
constexpr int WN = 16;
constexpr int WK = 16;

// C (M x N, fp32) = A (M x K, fp16, row-major) * B (K x N, fp16, col-major).
// One warp per 16x16 output tile; the grid covers the tiles.
__global__ void wmma_gemm_f16(const __half *__restrict__ a, const __half *__restrict__ b,
                              float *__restrict__ c, int M, int N, int K)
{
  const int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
  if (warp_m * WM >= M || warp_n * WN >= N) return;

  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, WM, WN, WK, __half, nvcuda::wmma::row_major> a_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, WM, WN, WK, __half, nvcuda::wmma::col_major> b_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, WM, WN, WK, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);

  for (int k = 0; k < K; k += WK) {
    const __half *a_tile = &a[(size_t)warp_m * WM * K + k];
    const __half *b_tile = &b[(size_t)warp_n * WN * K + k];
    nvcuda::wmma::load_matrix_sync(a_frag, a_tile, K);
    nvcuda::wmma::load_matrix_sync(b_frag, b_tile, K);
    nvcuda::wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  float *c_tile = c + (size_t)warp_m * WM * N + warp_n * WN;
  nvcuda::wmma::store_matrix_sync(c_tile, acc, N, nvcuda::wmma::mem_row_major);
}

// TF32 tile (sm_80): fp32 data, TF32 precision in the fragments.
__global__ void wmma_tile_f32_inputs(const float *__restrict__ a, const float *__restrict__ b,
                               float *__restrict__ c)
{
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::row_major> a_frag; // expect: PREC-003
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 8, nvcuda::wmma::precision::tf32, nvcuda::wmma::col_major> b_frag; // expect: PREC-003
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 8, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  nvcuda::wmma::load_matrix_sync(a_frag, a, 8);
  nvcuda::wmma::load_matrix_sync(b_frag, b, 8);
  nvcuda::wmma::mma_sync(acc, a_frag, b_frag, acc);
  nvcuda::wmma::store_matrix_sync(c, acc, 16, nvcuda::wmma::mem_row_major);
}

// A plain fp32 reference for the same tile, no tensor cores.
__global__ void tile_reference(const float *__restrict__ a, const float *__restrict__ b,
                               float *__restrict__ c)
{
  const int r = threadIdx.y, col = threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s += a[r * 8 + k] * b[col * 8 + k];
  c[r * 16 + col] = s;
}
