// Tiled matrix transpose.
//
// A block moves one TILE x TILE tile: coalesced reads of rows into shared
// memory, coalesced writes of the transposed rows back out.  The extra column
// in the tile shifts each row by one bank, so reading a column of the tile is
// free of bank conflicts.
#include "fastops/common.cuh"
#include "fastops/ops.h"

namespace fastops {
namespace {

constexpr int TILE = 32;
constexpr int BLOCK_ROWS = 8;  // each thread copies TILE / BLOCK_ROWS elements

__global__ void transpose_kernel(const float* __restrict__ in,
                                 float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];

  int x = blockIdx.x * TILE + threadIdx.x;  // column of `in`
  int y = blockIdx.y * TILE + threadIdx.y;  // row of `in`
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * cols + x];
  }
  __syncthreads();

  x = blockIdx.y * TILE + threadIdx.x;  // column of `out`
  y = blockIdx.x * TILE + threadIdx.y;  // row of `out`
  for (int j = 0; j < TILE; j += BLOCK_ROWS) {
    if (x < rows && y + j < cols)
      out[size_t(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

}  // namespace

void transpose(const float* in, float* out, int rows, int cols,
               cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 block(TILE, BLOCK_ROWS);
  const dim3 grid(ceil_div(cols, TILE), ceil_div(rows, TILE));
  transpose_kernel<<<grid, block, 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace fastops
