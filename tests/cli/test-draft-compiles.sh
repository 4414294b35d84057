#!/bin/sh
# A drafted spec always compiles in its harness (docs/checks.md, "A drafted
# spec compiles"): a file with each form whose draft made a harness fail on
# public programs (names of main's locals through a macro, a local array,
# comments inside a launch's arguments, a struct from a braced
# initialiser, a struct taken by reference, a struct the program fills field by field, a __device__
# array in the grid, an int for an int4, a namespace's constant, a tag type
# deduced from, a local computed from a number parameter; the same
# file as tests/unit/test_settle.c's), and the specs drafted from a
# recording (hp_from_hex, embedded inputs, an offset), a launch drafted after
# apply wrote the port over it (from the original), drafted, bundled
# and built with BUILD_ONLY=1: the reference and the nvidia-proxy port with
# nvcc, the port with hipcc for gfx90a. Fails when a harness does not
# build; each compiler is skipped without it, exit 77 without either.
# usage: test-draft-compiles.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
arch=${HIPPORT_TEST_ARCH:-gfx90a}
nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
hipcc=$(command -v hipcc 2>/dev/null)
# the gfx942 lane (tests/lane-gfx942.sh) builds only the AMD side
[ -n "${HIPPORT_TEST_AMD_ONLY:-}" ] && nvcc=
if [ -z "$nvcc" ] && [ -z "$hipcc" ]; then
	echo "skipped: neither nvcc nor hipcc is installed"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/draft-record-fixture.sh"
repo="$tmp/repo"
draft_record_fixture "$repo" "$tmp/rec" || { echo "cannot make the fixture"; exit 2; }
cat >"$repo/forms.cu" <<'EOF'
#include <cuda_runtime.h>
#include <type_traits>
#define BLOCK_SIZE 16
#define CELLS (nx * ny)
struct params { int b, c, w, h; };
__device__ int shape[4];
namespace ops { namespace { constexpr int kBlock = 128; } }
__global__ void by_macro(float *a, int n) { a[threadIdx.x] = n; }
__global__ void by_array(int *wall, int *src, int cols) { src[threadIdx.x] = wall[cols]; }
__global__ void commented(float *a, int n, int pad) { a[threadIdx.x] = n + pad; }
__global__ void by_struct(float *out, params p, size_t n) { out[0] = p.b * n; }
__global__ void unfilled(float *out, params q) { out[0] = q.c; }
__global__ void by_shape(float *out, int n) { out[threadIdx.x] = n; }
__global__ void vec(int *out, int4 v) { out[0] = v.x; }
__global__ void by_ref(params &p, float *out) { out[0] = p.w; }
namespace ops { __global__ void spaced(float *out, int n) { out[threadIdx.x] = n; } }
void path(int *wall, int *bufs[2], int cols, int src) {
  dim3 g(cols / BLOCK_SIZE);
  by_array<<<g, BLOCK_SIZE>>>(wall, bufs[src], cols);
}
template <typename T> void widen(int *out, T v) {
  vec<<<1, 1>>>(out, v);
}
void use_widen(int *out) { widen(out, make_int4(1, 2, 3, 4)); }
template <typename T> __host__ __device__ T ceil_of(T a, T b) { return (a + b - 1) / b; }
template <typename Out, bool Atomic>
__global__ void tagged(Out *out, const float *in, int n, std::bool_constant<Atomic>) { out[0] = Atomic ? in[0] : n; }
void launcher(float *out, const float *in, int n, int block_size) {
  dim3 block = {4, 8, (unsigned)block_size / 32};
  const int per_block = block.y * 4;
  tagged<<<ceil_of(n, per_block), block>>>(out, in, n, std::bool_constant<true>{});
}
namespace ops { void run(float *d, int n) { spaced<<<(n + kBlock - 1) / kBlock, kBlock>>>(d, n); } }
int main(int argc, char **argv) {
  int nx = argc, ny = 8;
  float *d; cudaMalloc(&d, CELLS * sizeof(float));
  by_macro<<<CELLS / 256, 256>>>(d, CELLS);
  commented<<<1, 256>>>(d, // the count
    64, /* padding */ 2);
  params p = {128, 3, 480, 640};
  by_struct<<<1, 1>>>(d, p, (size_t)p.b * p.c);
  params q;
  q.c = 3;
  unfilled<<<1, 1>>>(d, q);
  by_ref<<<1, 1>>>(q, d);
  by_shape<<<(64 * shape[1] + 255) / 256, 256>>>(d, 64);
  return 0;
}
EOF
# a launch whose warp size the port writes as HIPPORT_WAVEFRONT_SIZE: drafted
# after apply, from the original, which both sides build
cat >"$repo/warp.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void lanes(float *out, int n) {
  const int warp_size = 32;
  if (threadIdx.x % warp_size == 0) out[blockIdx.x] = n;
}
void run(float *d, int n) {
  const int warp_size = 32;
  lanes<<<n / warp_size, warp_size, warp_size * sizeof(float)>>>(d, n);
}
EOF
(cd "$repo" && git add forms.cu warp.cu && git -c user.name=t -c user.email=t@t commit -qm forms) || exit 2
check "apply the warp fix" 0 "$hipport" -C "$repo" apply --fix=all warp.cu
expect "the port says HIPPORT_WAVEFRONT_SIZE" "$repo/warp.cu" "const int warp_size = HIPPORT_WAVEFRONT_SIZE;"
check "draft the forms" 0 "$hipport" -C "$repo" check --draft-spec forms.cu warp.cu
check "draft from the recording" 0 "$hipport" -C "$repo" check --draft-spec --from-record "$tmp/rec" prog/main.cu
truth "14 specs" test "$(ls "$repo/.hipport/checks"/*.check | wc -l)" = 14
expect "drafted from the original after apply" "$repo/.hipport/checks/warp.lanes.check" "grid = n_host / 32"
truth "no port-only name in the draft" sh -c "! grep -q HIPPORT_WAVEFRONT_SIZE '$repo/.hipport/checks/warp.lanes.check'"
expect "a marked value" "$repo/.hipport/checks/forms.by_shape.check" "# guessed: shape is a __device__ variable"
expect "a tag's own type" "$repo/.hipport/checks/forms.tagged.check" "type = std::bool_constant<true>"
expect "a number parameter keeps the expression over it" "$repo/.hipport/checks/forms.tagged.check" "block = dim3{4, 8, (unsigned)block_size / 32}"
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/bundle"
built='
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
assert len(checks) == 14, len(checks)
bad = [(c["name"], c["message"]) for c in checks if c["status"] != "skipped" or "built" not in c["message"]]
assert not bad, bad
'
if [ -n "$nvcc" ]; then
	check "nvcc: reference and nvidia-proxy port" 0 env NVCC="$nvcc" PORT_PLATFORM=nvidia-proxy BUILD_ONLY=1 \
		sh "$tmp/bundle/run.sh"
	truth "nvcc: every harness built" python3 -c "$built" "$tmp/bundle/results.json"
else
	echo "skip nvcc builds: nvcc is not installed"
fi
if [ -n "$hipcc" ]; then
	check "hipcc: port for $arch" 0 env PORT_PLATFORM=amd OFFLOAD_ARCH="$arch" REFERENCE=golden BUILD_ONLY=1 \
		sh "$tmp/bundle/run.sh"
	truth "hipcc: every harness built" python3 -c "$built" "$tmp/bundle/results.json"
else
	echo "skip hipcc builds: hipcc is not installed"
fi
finish
