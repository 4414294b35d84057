#!/bin/sh
# tools/hipify-unit on cases in HIPIFY's lit format written for this test:
# one that passes, one whose CHECK line hipport does not satisfy, one gated
# to an old CUDA version (skipped) and a helper header without a RUN line
# (not a test). The per-file lines, the total and the TSV are checked.
# usage: test-hipify-unit.sh HIPPORT SOURCE_DIR
set -u
hipport=$1
src=$2
filecheck=${FILECHECK:-/usr/lib/llvm-15/bin/FileCheck}
if [ ! -x "$filecheck" ]; then
	echo "SKIP: $filecheck not found"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cases/sub"
cat >"$tmp/cases/good.cu" <<'CU'
// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
#include "helper.h"
__global__ void fill(float *p) { p[threadIdx.x] = 0.0f; }
int main() {
  float *p;
  // CHECK: hipMalloc(&p, 64); // {{$}}
  cudaMalloc(&p, 64); // a trailing comment is blanked
  // CHECK: hipLaunchKernelGGL(fill, dim3(1), dim3(16), 0, 0, p);
  fill<<<1, 16>>>(p);
  // CHECK-NOT: cudaFree
  cudaFree(p);
}
CU
cat >"$tmp/cases/sub/bad.cu" <<'CU'
// RUN: %run_test hipify "%s" "%t" %hipify_args 2 --amap --roc %clang_args -DFOO
#include <cuda_runtime.h>
int main() {
  int n = 0;
  // CHECK: hipGetDeviceCountWrong(&n);
  cudaGetDeviceCount(&n);
}
CU
cat >"$tmp/cases/old_before_9000.cu" <<'CU'
// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// CHECK: nothing to see
CU
printf '#pragma once\nint helper(void);\n' >"$tmp/cases/helper.h"

fail=0
python3 "$src/tools/hipify-unit" "$tmp/cases" --hipport "$hipport" --filecheck "$filecheck" \
	--tsv "$tmp/out.tsv" >"$tmp/out" 2>"$tmp/err"
code=$?
[ "$code" = 0 ] || { echo "FAIL exit $code"; cat "$tmp/err"; fail=1; }
expect_line() {
	grep -q "$1" "$tmp/out" || { echo "FAIL no line matching: $1"; fail=1; }
}
expect_line '^pass good\.cu$'
expect_line '^fail sub/bad\.cu  (line 5: CHECK: expected string not found in input)$'
expect_line '^skip old_before_9000\.cu  (CUDA before 9000 only)$'
expect_line '^total: 1 passed, 1 failed, 1 skipped (1 of 2 run pass)$'
grep -q helper "$tmp/out" && { echo "FAIL helper.h counted as a test"; fail=1; }
grep -q "^sub/bad.cu	fail	--roc (dropped: --amap -DFOO)	line 5:" "$tmp/out.tsv" ||
	{ echo "FAIL TSV row of bad.cu:"; cat "$tmp/out.tsv"; fail=1; }
[ "$(head -1 "$tmp/out.tsv")" = "$(printf 'path\tresult\toptions\tdetail')" ] ||
	{ echo "FAIL TSV header"; fail=1; }
# A missing directory is a usage error.
python3 "$src/tools/hipify-unit" "$tmp/none" --hipport "$hipport" --filecheck "$filecheck" >/dev/null 2>&1
[ $? = 2 ] || { echo "FAIL missing directory: expected exit 2"; fail=1; }
[ "$fail" = 0 ] && echo "ok"
[ "$fail" = 0 ] || { echo "--- output:"; cat "$tmp/out"; }
exit $fail
