#!/bin/sh
# hipport check draft on a header of kernels that a runner launches: each
# kernel's spec comes from the launch in the file that includes the header
# (through another header), with that launch's template arguments, and is
# checked in that file; a kernel nobody launches keeps the signature's
# draft. A block made of run-time names gets the values their declarations
# give, or sizes whose product a GPU takes. The harness takes the runtime
# header before the program, whose macros (#define T 256) would break it.
# usage: test-draft-includers.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"

repo=$tmp/lib
mkdir -p "$repo/src/kernels" || exit 2
cat >"$repo/src/kernels/scale.cuh" <<'EOF2'
#pragma once
template <int BM, int TM>
__global__ void scale(int n, const float *x, float *y)
{
	constexpr int per = BM / TM; // 0 with the signature's 1, 1 drafted: no division by it
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * per;
	if (i < n)
		y[i] = 2.0f * x[i] / per;
}
__global__ void unused(float *y) { y[threadIdx.x] = 1.0f; }
EOF2
printf '#pragma once\n#include "kernels/scale.cuh"\n' >"$repo/src/kernels.cuh"
cat >"$repo/src/runner.cu" <<'EOF2'
#include <cstdlib>
#include "kernels.cuh"
#define T 256
void run(int n, const float *x, float *y)
{
	const int K_BM = 64;
	const int K_TM = 8;
	scale<K_BM, K_TM><<<(n + T - 1) / T, T>>>(n, x, y);
}
int main(int argc, char **argv)
{
	int dimx = 32;
	int dimy = 8;
	if (argc > 2) {
		dimx = atoi(argv[1]);
		dimy = atoi(argv[2]);
	}
	float *x, *y;
	cudaMalloc(&x, 4096 * sizeof(float));
	cudaMalloc(&y, 4096 * sizeof(float));
	run(4096, x, y);
	dim3 block(dimx, dimy);
	unused<<<1, block>>>(y);
	return 0;
}
EOF2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2

check "draft the header" 0 "$hipport" -C "$repo" check draft src/kernels/scale.cuh
expect "said where from" "$tmp/out" "drafted for scale in src/kernels/scale.cuh (from its launch at src/runner.cu:8, checked in that file)"
spec=$repo/.hipport/checks/src-runner.scale.check
truth "the includer's spec" test -f "$spec"
expect "checked in the includer" "$spec" "source = src/runner.cu"
expect "the launch's template arguments" "$spec" "template = 64, 8"
truth "no spec of the header's own for scale" sh -c "! ls '$repo/.hipport/checks' | grep -q 'src-kernels-scale.scale'"
# unused is launched in runner.cu too: its block from the declarations' values
spec=$repo/.hipport/checks/src-runner.unused.check
expect "unused: from the includer" "$tmp/out" "drafted for unused in src/kernels/scale.cuh (from its launch at src/runner.cu:23"
expect "unused: dimx as declared" "$spec" "dimx: drafted 32, as its declaration gives it; the program may set it at run time"
truth "unused: dimy 8" sh -c "grep -A2 '^\[var \"dimy\"\]' '$spec' | grep -q 'value = 8'"

# a block of two names with no value in sight: 16 x 16, not 256 x 256
sed -i 's/int dimx = 32;/int dimx;/; s/int dimy = 8;/int dimy;/' "$repo/src/runner.cu"
rm -f "$repo/.hipport/checks/src-runner.unused.check"
check "draft the runner" 0 "$hipport" -C "$repo" check draft src/runner.cu
truth "two block names: 16 each" test "$(grep -A2 '^\[var "dim[xy]"\]' "$spec" | grep -c 'value = 16')" = 2

# a header nobody includes: the signature's draft, as before
printf '__global__ void lone(float *y) { y[threadIdx.x] = 0.5f; }\n' >"$repo/src/kernels/lone.cuh"
check "draft a header nobody includes" 0 "$hipport" -C "$repo" check draft src/kernels/lone.cuh
expect "its own spec" "$tmp/out" "drafted for lone in src/kernels/lone.cuh"
truth "no launch named" sh -c "! grep -q '^[[:space:]]*launch = ' '$repo/.hipport/checks/src-kernels-lone.lone.check'"

# the harness: runtime first, then the program with its macros
mkdir -p "$repo/.hipport" && printf '[record "src"]\n\tbuild = "$HIPPORT_CXX" -o runner runner.cu\n\trun = ./runner\n' >>"$repo/.hipport/config"
check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b"
expect "bundle: one program, said in the singular" "$tmp/out" "bundle of 3 kernel checks and 1 program to record"
truth "harness: runtime before the program" test "$(grep -n '^#include "' "$tmp/b/harness/src-runner.scale.cu" | cut -d: -f2 | tr '\n' ' ')" = \
	'#include "hipport_harness.h" #include "src/runner.cu" '
finish
