// Negative cases: code that looks like the patterns of the new checks but
// must produce no ATOM/PREC/WARP/ASM/ARCH/MEM finding.
// The original used asm("mov.u32 %0, %%laneid;") and threadIdx.x & 31 for the
// lane; this version needs neither (a comment, not code).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <vector>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// Matrix transpose through a padded shared tile (no bank conflicts).
__global__ void transpose(float *__restrict__ out, const float *__restrict__ in, int width, int height)
{
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += BLOCK_ROWS)
    if (x < height && y + j < width) out[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Tiled matmul with 32x32 tiles and 32x32 threads.
__global__ void __launch_bounds__(1024) matmul_tiled(const float *__restrict__ A,
                                                     const float *__restrict__ B,
                                                     float *__restrict__ C, int K, int N)
{
  __shared__ float As[TILE_DIM][TILE_DIM];
  __shared__ float Bs[TILE_DIM][TILE_DIM];
  const int row = blockIdx.y * TILE_DIM + threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < K / 32; ++t) {
    As[threadIdx.y][threadIdx.x] = A[(size_t)row * K + t * 32 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(size_t)(t * 32 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[(size_t)row * N + col] = sum;
}

// Byte histogram with integer atomics in shared and global memory.
__global__ void histogram256(const uint8_t *__restrict__ data, unsigned int *bins, size_t n)
{
  __shared__ unsigned int s_bins[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) s_bins[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&s_bins[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], s_bins[b]);
}

// Logistic loss with the accurate math functions.
__global__ void logistic(const float *__restrict__ z, const float *__restrict__ label, float *loss,
                         float *prob, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float p = 1.0f / (1.0f + expf(-z[i]));
  prob[i] = p;
  loss[i] = -(label[i] * logf(p + 1e-7f) + (1.0f - label[i]) * logf(1.0f - p + 1e-7f));
}

// Blelloch up-sweep: strides are powers of two of a loop counter.
__global__ void upsweep(int *data, int log2n)
{
  for (int k = 0; k < log2n; ++k) {
    const int stride = 1 << k;
    const int ai = stride * (2 * threadIdx.x + 1) - 1;
    const int bi = stride * (2 * threadIdx.x + 2) - 1;
    if (bi < (1 << log2n)) data[bi] += data[ai];
    __syncthreads();
  }
}

// Per-thread loop over 64 elements, flushing every 32 (loop counter only).
__global__ void chunked_sum(const float *__restrict__ x, float *__restrict__ chunk_sums, int n)
{
  const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  const int base = chunk * 64;
  float s = 0.0f;
  for (int k = 0; k < 64 && base + k < n; ++k) {
    s += x[base + k];
    if (k % 32 == 31) {
      chunk_sums[chunk * 2 + k / 32] = s;
      s = 0.0f;
    }
  }
}

// Host helpers: 32-byte chunks of a byte count, bit packing of a flag array.
size_t chunks_of(size_t bytes) { return bytes >> 5; }

std::vector<uint32_t> pack_flags(const std::vector<bool> &flags)
{
  std::vector<uint32_t> words((flags.size() + 31) / 32, 0u);
  for (size_t i = 0; i < flags.size(); ++i)
    if (flags[i]) words[i / 32] |= 1u << (i % 32);
  return words;
}

int main()
{
  static const char kNote[] = "no asm here; lane = threadIdx.x & 31 is a string";
  std::printf("%s, %zu chunks\n", kNote, chunks_of(4096));
  const int n = 1 << 20;
  float *d_x = nullptr;
  cudaMalloc(&d_x, n * sizeof(float));
  float *d_sums = nullptr;
  cudaMalloc(&d_sums, (n / 32) * sizeof(float));
  chunked_sum<<<(n / 64 + 255) / 256, 256>>>(d_x, d_sums, n);
  cudaDeviceSynchronize();
  cudaFree(d_sums);
  cudaFree(d_x);
  return 0;
}
