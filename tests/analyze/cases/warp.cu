// Warp-level code written for 32-lane warps: reductions, block reductions,
// inclusive scans, ballots and lane masks, next to portable versions.
#include <cuda_runtime.h>
#include <stdint.h>

#define WARP_SIZE 32 /* expect: WARP-002 */
#define LOG2_WARP_SIZE 5 /* expect: WARP-002 */
#define WARPS_PER_BLOCK 8
constexpr int kWarpSize = 32; // expect: WARP-002
constexpr int kBlockThreads = 256;

#if defined(__AMDGCN_WAVEFRONT_SIZE) && __AMDGCN_WAVEFRONT_SIZE == 64 /* expect: WARP-009 */
#define LANES_PER_WAVE 64
#else
#define LANES_PER_WAVE 32
#endif

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) // expect: WARP-003
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__device__ __forceinline__ float warp_reduce_max(float v)
{
  unsigned full = 0xffffffff; // 32 bits: a finding from HIP 6.2 (warp_sync62.cu)
  for (int mask = 16; mask > 0; mask >>= 1) // expect: WARP-003
    v = fmaxf(v, __shfl_xor_sync(full, v, mask));
  return v;
}

// Portable: the width comes from warpSize or from a template parameter.
__device__ __forceinline__ float warp_reduce_sum_portable(float v)
{
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

template <int W>
__device__ __forceinline__ float wave_reduce_sum(float v)
{
  for (int offset = W / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// Classic block reduction: one partial sum per warp in shared memory.
__device__ float block_reduce_sum(float v)
{
  __shared__ float warp_sums[32]; // expect: WARP-008
  const int lane = threadIdx.x & 31; // expect: WARP-001
  const int wid = threadIdx.x >> 5; // expect: WARP-001
  v = warp_reduce_sum(v);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = (lane * 32 < (int)blockDim.x) ? warp_sums[lane] : 0.0f;
    v = warp_reduce_sum(v);
  }
  return v;
}

__global__ void row_sum(const float *__restrict__ x, float *__restrict__ out, int cols)
{
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[(size_t)blockIdx.x * cols + c];
  s = block_reduce_sum(s);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Inclusive warp scan with __shfl_up_sync.
__device__ int warp_inclusive_scan(int v)
{
  const int tid = threadIdx.x;
  const int lane = tid % 32; // expect: WARP-001
  for (int d = 1; d < 32; d *= 2) { // expect: WARP-003
    const int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  return v;
}

__device__ int warp_inclusive_scan_portable(int v)
{
  const int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    const int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  return v;
}

// Stream compaction: ballot for the warp total, scan for the rank.
__global__ void compact_positive(const float *__restrict__ in, float *__restrict__ out,
                                 int *out_count, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0.0f;
  const unsigned vote = __ballot_sync(0xffffffff, keep); // expect: WARP-004
  if (vote == 0) return;
  const int total = __popc(vote); // expect: WARP-005
  const int leader = __ffs(vote) - 1; // expect: WARP-005
  const int rank = warp_inclusive_scan(keep ? 1 : 0) - 1;
  int base = 0;
  if (rank == 0 && keep) base = atomicAdd(out_count, total);
  base = __shfl_sync(0xffffffff, base, leader);
  if (keep) out[base + rank] = in[i];
}

// Occupancy bitmap: one bit per active lane, one word per warp.
__global__ void mark_active_lanes(const int *__restrict__ work, unsigned *active_bitmap,
                                  int *voters, unsigned long long *votes64, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32; // expect: WARP-001
  const int warp = threadIdx.x / 32; // expect: WARP-001
  const bool busy = i < n && work[i] != 0;
  if (busy) atomicOr(&active_bitmap[blockIdx.x * WARPS_PER_BLOCK + warp], 1u << lane); // expect: WARP-007
  const int count = __popc(__ballot_sync(0xffffffff, busy)); // expect: WARP-005
  const unsigned lane_bit = 1 << (threadIdx.x & 31); // expect: WARP-001, WARP-007
  const unsigned long long wide = __ballot_sync(0xffffffff, busy);
  if (lane == 0) {
    voters[blockIdx.x * WARPS_PER_BLOCK + warp] = count + __popcll(wide);
    votes64[blockIdx.x * WARPS_PER_BLOCK + warp] = wide | lane_bit;
  }
}

// Broadcast helpers: a mask from __activemask and a full mask kept in a variable.
__device__ float broadcast_first_active(float v)
{
  const uint32_t active = __activemask(); // expect: WARP-004
  return __shfl_sync(active, v, 0);
}

__device__ float broadcast_lane0(float v)
{
  const unsigned all_lanes = ~0u; // 32 bits: a finding from HIP 6.2 (warp_sync62.cu)
  return __shfl_sync(all_lanes, v, 0);
}

// Bit counting on data words (not ballots) and a word count on a size.
__global__ void popcount_words(const unsigned *__restrict__ words, int *bits, int nbits)
{
  const int nwords = (nbits + 31) >> 5;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nwords) bits[i] = __popc(words[i]);
}

// One warp per row, portable: warpSize for the lane and the width of the wave.
__global__ void row_sum_portable(const float *__restrict__ x, float *__restrict__ out,
                                 int rows, int cols)
{
  const int lane = threadIdx.x % warpSize;
  const int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += warpSize) s += x[(size_t)row * cols + c];
  s = wave_reduce_sum<LANES_PER_WAVE>(s);
  if (lane == 0) out[row] = s;
}

void launch_row_sums(const float *x, float *out, float *out2, int rows, int cols, cudaStream_t st)
{
  row_sum<<<rows, WARPS_PER_BLOCK * WARP_SIZE, 0, st>>>(x, out, cols);
  const int rows_per_block = kBlockThreads / kWarpSize;
  const int grid = (rows + rows_per_block - 1) / rows_per_block;
  row_sum_portable<<<grid, kBlockThreads, 0, st>>>(x, out2, rows, cols);
}

// A lane's bit tested in a 64-bit ballot: the shift is widened on its way.
__device__ bool lane_voted(unsigned long long ballot)
{
  const int lane = threadIdx.x % warpSize;
  return (ballot & (1u << lane)) != 0; // expect: WARP-007
}

// glibc's uint, and a warp's row of a per-warp histogram picked by shifting.
__global__ void warp_histogram(const unsigned char *data, uint *hist, int n)
{
  __shared__ uint rows[8 * 256];
  uint lane_id = threadIdx.x % 32; // expect: WARP-001
  uint *mine = rows + (threadIdx.x >> LOG2_WARP_SIZE) * 256;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&mine[data[i]], 1u);
  __syncthreads();
  if (lane_id == 0 && threadIdx.x < 256)
    atomicAdd(&hist[threadIdx.x], rows[threadIdx.x]);
}

// The total of an inclusive scan sits in the last lane: 31 on a 32-lane warp.
__device__ int scan_total(int v)
{
  const int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    const int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  const int total = __shfl_sync(0xffffffff, v, 31); // expect: WARP-003
  const int in_half = __shfl_sync(0xffffffff, v, 31, 32);
  return total + in_half;
}

// A block's second stage, the warp id from the WARP_SIZE macro alone (no
// literal 32 in the function), as llama.cpp's two-stage reductions do.
__device__ float block_total_second_stage(float partial)
{
  __shared__ float per_warp[32]; // expect: WARP-008
  const int warp = threadIdx.x / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  if (lane == 0) per_warp[warp] = partial;
  __syncthreads();
  return lane < (int)(blockDim.x / WARP_SIZE) ? per_warp[lane] : 0.0f;
}

// A constant of this file whose name does not say warp size (HeCBench's
// warpexchange): reported where it divides a thread index, and the message
// names its line in this file.
constexpr int warp_threads = 32;
__global__ void per_warp_flag(int *out)
{
  __shared__ int flags[8];
  const int warp_id = threadIdx.x / warp_threads; // expect: WARP-001
  flags[warp_id] = 1;
  __syncthreads();
  out[threadIdx.x] = flags[warp_id];
}

// A launch's grid from the warps a block holds, in host code (NVIDIA's
// tensor-cores sample names its dim3 blockDim): warpSize is no name there,
// so the fix divides by the platform's wavefront size, WARP-002's constant.
void launch_flags(int *out, int tiles)
{
  dim3 blockDim(128);
  dim3 gridDim((tiles + (16 * blockDim.x / 32 - 1)) / (16 * blockDim.x / 32)); // expect: WARP-001
  per_warp_flag<<<gridDim, blockDim>>>(out);
}
