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
EOF2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm k) || exit 2
check "apply" 0 "$hipport" -C "$repo" apply
check "resources" 0 "$hipport" -C "$repo" check --resources --offload-arch=gfx90a
expect "resources: the table" "$tmp/out" "KERNEL                                VGPR  AGPR  SGPR  SCRATCH  SPILLS    LDS WAVES/SIMD"
expect "resources: a kernel by its name" "$tmp/out" "  scale "
expect "resources: a namespace's kernel" "$tmp/out" "  ops::picked "
expect "resources: scratch said" "$tmp/out" "uses scratch memory (a private array indexed at run time"
truth "resources: no kernel run" sh -c "! grep -q 'CHECK ' '$tmp/out'"
# without --resources, the compile check's output has no remarks
check "compile only" 0 "$hipport" -C "$repo" check --offload-arch=gfx90a
truth "no table without --resources" sh -c "! grep -q 'WAVES/SIMD' '$tmp/out'"
finish
