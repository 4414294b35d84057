#!/bin/sh
# hipport check --resources: each compiled kernel's registers, scratch, LDS
# and occupancy as hipcc reports them (-Rpass-analysis=kernel-resource-usage),
# without a GPU; a private array indexed at run time is scratch, and said;
# no kernel is run for the report. Skipped (77) without hipcc.
# usage: test-resources.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
command -v hipcc >/dev/null 2>&1 || [ -n "${HIPPORT_ROCM_ROOT:-}" ] || { echo "no hipcc: skipped"; exit 77; }

repo=$tmp/repo
mkdir -p "$repo" || exit 2
cat >"$repo/k.cu" <<'EOF2'
#include <cuda_runtime.h>
__global__ void scale(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}
namespace ops {
__global__ void picked(float *x, const int *at, int n)
{
  float keep[64];
  for (int k = 0; k < 64; k++)
    keep[k] = x[k * n + threadIdx.x];
  x[threadIdx.x] = keep[at[threadIdx.x] & 63];
}
}
// 160 running sums a thread: more registers than a block of 1024 allows
__device__ __forceinline__ void sums(const float *x, float *y, int n)
{
  float acc[160];
#pragma unroll
  for (int k = 0; k < 160; k++)
    acc[k] = x[k * n + threadIdx.x];
  for (int r = 0; r < n; r++) {
#pragma unroll
    for (int k = 0; k < 160; k++)
      acc[k] = acc[k] * x[r * 160 + k] + acc[(k + 1) % 160];
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 160; k++)
    s += acc[k];
  y[threadIdx.x] = s;
}
__global__ void wide(const float *x, float *y, int n) { sums(x, y, n); }
// the same, bounded by the program: the probe's bound changes nothing
__global__ void __launch_bounds__(1024) wide_bounded(const float *x, float *y, int n) { sums(x, y, n); }
EOF2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm k) || exit 2
check "apply" 0 "$hipport" -C "$repo" apply
check "resources" 0 "$hipport" -C "$repo" check --resources --offload-arch=gfx90a
expect "resources: the table" "$tmp/out" "KERNEL                                VGPR  AGPR  SGPR  SCRATCH  SPILLS    LDS WAVES/SIMD"
expect "resources: a kernel by its name" "$tmp/out" "  scale "
expect "resources: a namespace's kernel" "$tmp/out" "  ops::picked "
expect "resources: scratch said" "$tmp/out" "uses scratch memory (a private array indexed at run time"
# a kernel that spills for want of a launch bound: compiled again with one
expect "resources: spills said" "$tmp/out" "spills registers to scratch memory"
expect "resources: the bound's row" "$tmp/out" "    with __launch_bounds__(256) "
expect "resources: what the bound changes" "$tmp/out" "no spills with the bound"
truth "resources: one bound row (wide_bounded has its own)" sh -c "[ \$(grep -c 'with __launch_bounds__' '$tmp/out') = 1 ]"
truth "resources: the row under wide" sh -c "grep -A1 '^  wide ' '$tmp/out' | grep -q 'with __launch_bounds__(256)'"
truth "resources: no kernel run" sh -c "! grep -q 'CHECK ' '$tmp/out'"
# beside each fix of the file, what it changes: the example's row_sum_kernel
# compiled with WARP-003 (its shuffle loop from warpSize / 2) takes one VGPR more
ex=$tmp/example
cp -R "$src/share/examples/fastops" "$ex" || exit 2
(cd "$ex" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm ex) || exit 2
check "example: apply" 0 "$hipport" -C "$ex" apply
check "example: resources" 0 "$hipport" -C "$ex" check --resources --offload-arch=gfx90a src/reduce_softmax.cu
truth "example: the fix's row under its kernel" sh -c "grep -A1 'row_sum_kernel ' '$tmp/out' | grep -q '^    with WARP-003 '"
expect "example: what the fix changes" "$tmp/out" "1 more VGPR, the same waves per SIMD"
truth "example: no row for a fix that changes nothing" sh -c "! grep -A2 'softmax_kernel ' '$tmp/out' | grep -q '^    with '"
check "example: undo" 0 "$hipport" -C "$ex" apply --undo src/reduce_softmax.cu
check "example: fix taken" 0 "$hipport" -C "$ex" apply --fix=WARP-003 src/reduce_softmax.cu
check "example: resources again" 0 "$hipport" -C "$ex" check --resources --offload-arch=gfx90a src/reduce_softmax.cu
truth "example: the taken fix's row" sh -c "grep -A1 'row_sum_kernel ' '$tmp/out' | grep -q '^    without WARP-003 '"
# without --resources, the compile check's output has no remarks
check "compile only" 0 "$hipport" -C "$repo" check --offload-arch=gfx90a
truth "no table without --resources" sh -c "! grep -q 'WAVES/SIMD' '$tmp/out'"
finish
