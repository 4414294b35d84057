#!/bin/sh
# tools/bench/gen_hipify_perl.py: the script it regenerates from the HIPIFY
# tables compiles and translates a small CUDA file (cudaMalloc -> hipMalloc).
# usage: test-gen-hipify-perl.sh SOURCE_DIR
set -u
src=$1
perl=/usr/bin/perl
if [ ! -x "$perl" ]; then
	echo "SKIP: $perl not found"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

python3 "$src/tools/bench/gen_hipify_perl.py" -o "$tmp/hipify-perl" || { echo "FAIL generator exited $?"; exit 1; }
cat >"$tmp/t.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }
int main() { float *d; cudaMalloc(&d, 4 * sizeof(float));
  k<<<1, 4>>>(d); cudaDeviceSynchronize();
  cudaFree(d); return 0; }
CU
"$perl" "$tmp/hipify-perl" "$tmp/t.cu" -o "$tmp/t.hip" 2>"$tmp/err" || { echo "FAIL perl exited $?"; cat "$tmp/err"; exit 1; }
grep -q 'hipMalloc(&d' "$tmp/t.hip" || { echo "FAIL no hipMalloc:"; cat "$tmp/t.hip"; fail=1; }
grep -q 'cudaMalloc\|cudaFree\|cudaDeviceSynchronize' "$tmp/t.hip" && { echo "FAIL CUDA names left:"; cat "$tmp/t.hip"; fail=1; }
grep -q '#include <hip/hip_runtime.h>' "$tmp/t.hip" || { echo "FAIL header not replaced"; fail=1; }
[ "$fail" = 0 ] && echo "ok"
exit $fail
