#!/bin/sh
# A kernel that calls a __device__ function another file of the program
# defines (HeCBench's fresnel: main.cu declares Fresnel_Sine_Integral,
# fresnel.cu defines it and calls what sine.cu defines): its harness is
# built with relocatable device code and those files beside it, on both
# sides. With the real nvcc, BUILD_ONLY=1 (no GPU needed). Skipped (77)
# without nvcc.
# usage: test-link-units.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
need_nvcc

repo=$tmp/repo
mkdir -p "$repo" || exit 2
cat >"$repo/main.cu" <<'EOF2'
#include <cuda_runtime.h>
__host__ __device__ double fresnel(double x);

__global__ void kernel(const double *in, double *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = fresnel(in[i]);
}

int main()
{
	double *in, *out;
	cudaMalloc(&in, 1024 * sizeof(double));
	cudaMalloc(&out, 1024 * sizeof(double));
	kernel<<<4, 256>>>(in, out, 1024);
	return 0;
}
EOF2
cat >"$repo/fresnel.cu" <<'EOF2'
__host__ __device__ double sine_series(double x);
__host__ __device__ double fresnel(double x) { return sine_series(x * x); }
EOF2
cat >"$repo/sine.cu" <<'EOF2'
__host__ __device__ double sine_series(double x) { return x - x * x * x / 6; }
EOF2
cat >"$repo/unrelated.cu" <<'EOF2'
__host__ __device__ double cosine(double x) { return 1 - x * x / 2; }
EOF2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm fresnel) || exit 2
check "apply" 0 "$hipport" -C "$repo" apply
check "draft" 0 "$hipport" -C "$repo" check draft main.cu
check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b"
expect "the file defining the declared function is linked" "$tmp/b/harness/main.kernel.link" "fresnel.cu"
expect "and the one defining what that one declares" "$tmp/b/harness/main.kernel.link" "sine.cu"
truth "no other file" sh -c "! grep -q unrelated '$tmp/b/harness/main.kernel.link'"
check "BUILD_ONLY run" 0 env NVCC="$nvcc" NVCC_ARCH=sm_90 PORT_PLATFORM=nvidia-proxy BUILD_ONLY=1 RECORD=0 sh "$tmp/b/run.sh"
truth "both sides built" sh -c "test -x '$tmp/b/work/bin/ref.main.kernel' && test -x '$tmp/b/work/bin/port.main.kernel'"
expect "built, nothing refused" "$tmp/b/results.json" "built, not run (BUILD_ONLY=1)"
finish
