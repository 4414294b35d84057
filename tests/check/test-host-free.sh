#!/bin/sh
# A kernel whose file does not build as written (host code calling what CUDA
# 13 removed) is checked from the file without its host functions, on both
# sides, and the result says so; a file that builds keeps its whole harness.
# With the real nvcc, BUILD_ONLY=1 (no GPU needed). Skipped (77) without nvcc.
# usage: test-host-free.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
need_nvcc

repo=$tmp/repo
mkdir -p "$repo/src" || exit 2
cat >"$repo/src/scale.cu" <<'EOF2'
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

struct Timer {
	double t;
	double elapsed() const;
};
double Timer::elapsed() const { return t; }

static int clock_khz(void)
{
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	return p.clockRate; /* removed in CUDA 13 */
}

int main()
{
	float *x;
	cudaMalloc(&x, 256 * sizeof(float));
	scale<<<1, 256>>>(x, 2.0f, 256);
	printf("%d kHz\n", clock_khz());
	return 0;
}
EOF2
cat >"$repo/src/fine.cu" <<'EOF2'
__global__ void twice(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2;
}

int main()
{
	float *x;
	cudaMalloc(&x, 64 * sizeof(float));
	twice<<<1, 64>>>(x, 64);
	return 0;
}
EOF2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm scale) || exit 2
check "apply" 0 "$hipport" -C "$repo" apply
check "draft" 0 "$hipport" -C "$repo" check draft src/scale.cu src/fine.cu
check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b"
expect "the harness of the file without host functions" "$tmp/b/harness/src-scale.scale.kernels.cu" \
	'#include "src/scale.hipport-kernels.cu"'
truth "its copy declares the host functions" sh -c "grep -A1 'static int clock_khz(void)' '$tmp/b/orig/src/scale.hipport-kernels.cu' | grep -q '^;'"
truth "and leaves out a member defined out of its class" sh -c "! grep -q 'Timer::elapsed' '$tmp/b/orig/src/scale.hipport-kernels.cu'"
truth "its lines are the file's" test "$(wc -l <"$tmp/b/orig/src/scale.hipport-kernels.cu")" = "$(wc -l <"$repo/src/scale.cu")"
truth "the port's side too" test -f "$tmp/b/port/src/scale.hipport-kernels.cu"
check "BUILD_ONLY run" 0 env NVCC="$nvcc" NVCC_ARCH=sm_90 PORT_PLATFORM=nvidia-proxy BUILD_ONLY=1 JOBS=2 sh "$tmp/b/run.sh"
expect "the check is built from the file without host functions, and says why" "$tmp/b/results.json" \
	'checked from src/scale.cu without its host functions: the file as written does not build with nvcc'
expect "naming the host code's error" "$tmp/b/results.json" 'clockRate'
truth "both sides built" sh -c "test -x '$tmp/b/work/bin/ref.src-scale.scale' && test -x '$tmp/b/work/bin/port.src-scale.scale'"
truth "a file that builds keeps its whole harness" sh -c "grep '\"src-fine.twice\"' '$tmp/b/results.json' | grep -v -q 'without its host functions'"
finish
