#!/bin/sh
# share/check/cuda_legacy.h with the real nvcc: what CUDA 12 and 13 removed,
# and the warp votes and shuffles without a mask that sm_70 and later lack,
# build for sm_90 as the original meant them, CUB and Thrust included after
# it (libcu++ has a struct __any of its own). Skipped (77) without nvcc.
# usage: test-cuda-legacy.sh SOURCE_DIR TMP_DIR
src=$1
tmp=$2
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
need_nvcc
legacy=$src/share/check/cuda_legacy.h

cat >"$tmp/old.cu" <<'EOF2'
#include <cuda_runtime.h>
__global__ void vote(int *o, int x, float f)
{
  if (__any(x > (int)threadIdx.x)) o[0] = 1;
  if (__all(x > (int)threadIdx.x)) o[1] = 1;
  o[2] = __ballot(x > (int)threadIdx.x);
  o[3] = __shfl_down(x, 1) + __shfl(x, 0) + __shfl_up(x, 1, 16);
  o[4] = (int)__shfl_xor(f, 1) + (int)__shfl_down(1.0, 2u);
}
int main()
{
  return cudaThreadSynchronize() != cudaSuccess;
}
EOF2
check "without the header: the original does not build" 1 sh -c "'$nvcc' -arch=sm_90 -c '$tmp/old.cu' -o '$tmp/old.o' >'$tmp/plain.log' 2>&1 || exit 1"
check "with it: the original builds" 0 "$nvcc" -arch=sm_90 -include "$legacy" -c "$tmp/old.cu" -o "$tmp/old.o"
cat >"$tmp/cub.cu" <<'EOF2'
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
__global__ void k(int *o, int x) { o[0] = __any(x); }
int main() { thrust::device_vector<int> v(4); return 0; }
EOF2
check "CUB and Thrust after it" 0 "$nvcc" -std=c++17 -arch=sm_90 -include "$legacy" -c "$tmp/cub.cu" -o "$tmp/cub.o"
finish
