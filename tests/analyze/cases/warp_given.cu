// WARP-010: 32 given to, or compared with, something named for the warp size.
#include <cuda_runtime.h>

constexpr int kWarpSize = 64; // already right for AMD: not reported

static_assert(kWarpSize == 32, "unexpected warp size"); // expect: WARP-010

constexpr int kernel_warp_size(int n) { return n; }

constexpr int kWarps = kernel_warp_size(32); // expect: WARP-010

template <int kThreadsPerWarp, int kNumWarps, typename T = float>
__global__ void row_sum(const T *in, T *out)
{
  T v = in[threadIdx.x];
  for (int o = kThreadsPerWarp / 2; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % kThreadsPerWarp == 0)
    out[threadIdx.x / kThreadsPerWarp] = v;
}

template <int kRows, int kCols>
__global__ void tile(float *out) { out[threadIdx.x] = kRows * kCols; }

void launch(const float *in, float *out)
{
  row_sum<32, 4><<<1, 128>>>(in, out); // expect: WARP-010
  row_sum<64, 2><<<1, 128>>>(in, out);
  // a 32 for a parameter that is not the warp size
  tile<32, 4><<<1, 128>>>(out);
}
