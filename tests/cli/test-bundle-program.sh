#!/bin/sh
# What a bundle carries of the program (docs/checks.md, "What a bundle
# carries"): the files its sources include (quoted and relative, and
# <angled> through the Makefile's -I), the tracked files of the checked and
# recorded directories, the original's build files as HEAD holds them after
# apply, the port's as ported (proposed when not applied); and the compiler
# wrapper record runs build with, through a stand-in nvcc and hipcc that
# print their arguments.
# usage: test-bundle-program.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"

repo=$tmp/suite
mkdir -p "$repo/common" "$repo/include/lib" "$repo/saxpy-cuda/data" "$repo/other-cuda" || exit 2
printf '#pragma once\n#include "clock.h"\n#define MAX_THREADS_PER_BLOCK 256\n' >"$repo/common/bench.h"
printf '#pragma once\nstatic double seconds(void) { return 0; }\n' >"$repo/common/clock.h"
printf '#pragma once\ntypedef float real_t;\n' >"$repo/include/lib/types.h"
printf 'static void reference(float *y, int n) { (void)y; (void)n; }\n' >"$repo/saxpy-cuda/reference.c"
printf '1 2 3\n' >"$repo/saxpy-cuda/data/input.txt"
printf '# notes\n' >"$repo/saxpy-cuda/README.md"
cat >"$repo/saxpy-cuda/main.cu" <<'EOF'
#include <cstdio>
#include <cuda_runtime.h>
#include "../common/bench.h"
#include <lib/types.h>
#include "reference.c"

__global__ void saxpy(real_t a, const real_t *x, real_t *y, int n)
{
  int i = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main()
{
  const int n = 1024;
  real_t *x, *y;
  cudaMalloc(&x, n * sizeof(real_t));
  cudaMalloc(&y, n * sizeof(real_t));
  saxpy<<<n / MAX_THREADS_PER_BLOCK, MAX_THREADS_PER_BLOCK>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  printf("%f\n", seconds());
  return 0;
}
EOF
printf 'ARCH = sm_60\n-include ../common/extra.mk # optional\n' >"$repo/common/make.config"
printf 'LDFLAGS += -lm\r\ninclude ../common/crlf.mk\r\n' >"$repo/common/extra.mk"
printf '# a Makefile written on Windows\r\n' >"$repo/common/crlf.mk"
cat >"$repo/saxpy-cuda/Makefile" <<'EOF'
include ../common/make.config
CC = nvcc
ARCH = sm_60
CFLAGS = -std=c++14 -I../include -Xcompiler -Wall -arch=$(ARCH) -DSCALE=2 -DFAST
SIZE = 256
CFLAGS += -DN=$(SIZE) -DLATER=$(UNSET) \
	-DWIDE
ifeq ($(DEBUG),yes)
CFLAGS += -DDEBUG
endif

main: main.cu
	$(CC) $(CFLAGS) main.cu -o $@

run: main
	./main data/input.txt
EOF
printf 'all:\n\tnvcc x.cu\n' >"$repo/other-cuda/Makefile"
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm suite) || exit 2

# --- before apply: the port's Makefile is the proposal ----------------------
check "draft" 0 "$hipport" -C "$repo" check --draft-spec saxpy-cuda/main.cu
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/b1"
b=$tmp/b1
for f in common/bench.h common/clock.h include/lib/types.h saxpy-cuda/reference.c; do
	truth "harness trees carry $f" test -f "$b/orig/$f" -a -f "$b/port/$f"
	truth "record trees carry $f" test -f "$b/record/orig/$f" -a -f "$b/record/port/$f"
done
truth "record trees carry the input" test -f "$b/record/orig/saxpy-cuda/data/input.txt"
truth "record trees carry the Makefile's includes" test -f "$b/record/orig/common/make.config" -a -f "$b/record/port/common/extra.mk"
truth "an include on a CRLF line" test -f "$b/record/orig/common/crlf.mk"
truth "harness trees leave data" test ! -e "$b/orig/saxpy-cuda/data/input.txt"
truth "unrelated directories stay out" test ! -e "$b/orig/other-cuda/Makefile" -a ! -e "$b/record/orig/other-cuda/Makefile"
truth "original Makefile as written" cmp -s "$repo/saxpy-cuda/Makefile" "$b/record/orig/saxpy-cuda/Makefile"
expect "port Makefile proposed" "$b/record/port/saxpy-cuda/Makefile" "CC = hipcc"
# <lib/types.h> is found through the Makefile's -I../include: the harnesses build with it
expect "harness includes from the build's -I" "$b/bundle.conf" "INCLUDES='include'"
# the build's -D flags, outside its conditionals, before the kernel's file
expect "harness defines from the build's -D" "$b/harness/saxpy-cuda-main.saxpy.cu" "#define SCALE 2"
expect "a -D without a value is 1" "$b/harness/saxpy-cuda-main.saxpy.cu" "#define FAST 1"
truth "a -D of a conditional block is left" sh -c "! grep -q 'define DEBUG' '$b/harness/saxpy-cuda-main.saxpy.cu'"
# the Makefile's own variables expanded, continuations followed; a line
# that names a variable the file does not set is read as written, so its
# -D with a variable is left out
expect "a -D of a variable the file sets" "$b/harness/saxpy-cuda-main.saxpy.cu" "#define N 256"
expect "a -D on a continued line" "$b/harness/saxpy-cuda-main.saxpy.cu" "#define WIDE 1"
truth "a -D of a variable the file does not set is left" sh -c "! grep -q 'define LATER' '$b/harness/saxpy-cuda-main.saxpy.cu'"

# --- after apply: the original's tree is still the original ---------------
check "apply" 0 "$hipport" -C "$repo" apply
expect "apply ported the Makefile" "$repo/saxpy-cuda/Makefile" "CC = hipcc"
check "bundle after apply" 0 "$hipport" -C "$repo" check --bundle "$tmp/b2"
b=$tmp/b2
(cd "$repo" && git show HEAD:saxpy-cuda/Makefile) >"$tmp/head.mk"
truth "original Makefile from HEAD" cmp -s "$tmp/head.mk" "$b/record/orig/saxpy-cuda/Makefile"
truth "port Makefile from the work tree" cmp -s "$repo/saxpy-cuda/Makefile" "$b/record/port/saxpy-cuda/Makefile"
expect "original source is the original" "$b/record/orig/saxpy-cuda/main.cu" "cuda_runtime.h"
expect "port source is the port" "$b/record/port/saxpy-cuda/main.cu" "hip/hip_runtime.h"
expect "the original build's defines after apply" "$b/harness/saxpy-cuda-main.saxpy.cu" "#define SCALE 2"

# --- a unity build: the kernel's file is compiled inside main.cu -----------
unity=$tmp/unity
mkdir -p "$unity/app" || exit 2
cat >"$unity/app/main.cu" <<'EOF'
#include <cuda_runtime.h>
#include <cublas_v2.h>
typedef float fp;
#define SCALE 2
#include "work.cu"
#include "halve.cuh"
int main() { return run(); }
EOF
printf '__global__ void halve(fp *x) { x[threadIdx.x] /= SCALE; }\n' >"$unity/app/halve.cuh"
printf '#include "kernel.cu"\nstatic int run(void) { return 0; }\n' >"$unity/app/work.cu"
cat >"$unity/app/kernel.cu" <<'EOF'
__global__ void twice(fp *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= SCALE;
}
EOF
(cd "$unity" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm unity) || exit 2
check "unity: draft" 0 "$hipport" -C "$unity" check draft app/kernel.cu
check "unity: draft a header's kernel" 0 "$hipport" -C "$unity" check draft app/halve.cuh
check "unity: bundle" 0 "$hipport" -C "$unity" check bundle "$tmp/ub"
expect "unity: the harness includes the file that compiles the kernel" "$tmp/ub/harness/app-kernel.twice.cu" '#include "app/main.cu"'
truth "unity: the spec keeps its source" grep -q "^app-kernel.twice	app/kernel.cu	" "$tmp/ub/checks.list"
expect "unity: and a harness of the file alone" "$tmp/ub/harness/app-kernel.twice.alone.cu" '#include "app/kernel.cu"'
expect "unity: a header's kernel in its includer too" "$tmp/ub/harness/app-halve.halve.cu" '#include "app/main.cu"'
# run.sh takes the file alone, on both sides, when the including file does
# not build (a stand-in nvcc that fails on any harness but the .alone one)
mkdir -p "$tmp/fake" || exit 2
cat >"$tmp/fake/nvcc" <<'EOF'
#!/bin/sh
out= src= all="$*"
while [ $# -gt 0 ]; do
	case $1 in -o) out=$2; shift ;; *.cu) src=$1 ;; esac
	shift
done
echo "$src $all" >>"${FAKE_LOG:?}"
case $src in *.alone.cu) ;; *) echo "$src(1): error: identifier \"cudaThreadSynchronize\" is undefined"; exit 2 ;; esac
printf '#!/bin/sh\nexit 0\n' >"$out" && chmod +x "$out"
EOF
chmod +x "$tmp/fake/nvcc"
check "unity: run.sh falls back" 0 env NVCC="$tmp/fake/nvcc" FAKE_LOG="$tmp/fake.log" PORT_PLATFORM=nvidia-proxy \
	NVCC_ARCH=sm_90 BUILD_ONLY=1 RECORD=0 sh "$tmp/ub/run.sh"
truth "unity: built from the file alone" grep -q '"built, not run' "$tmp/ub/results.json"
truth "unity: the port built alone too" sh -c "tail -n 1 '$tmp/fake.log' | grep -q 'alone.cu'"
# the harness links what the program's headers stand for (cublas_v2.h: -lcublas)
expect "unity: the libraries of the program's headers" "$tmp/fake.log" "-lcublas"
truth "unity: the reference's first try kept" test -f "$tmp/ub/work/log/app-kernel.twice.ref-build.unit"

# --- an extension whose setup.py names its include directory ---------------
# (include_dirs=[...], which hipport does not read): a "quoted" include found
# nowhere else is the one tracked file of that name, and its directory is one
# of the harnesses' -I; a name two tracked files share is left unresolved
ext=$tmp/ext
mkdir -p "$ext/ops/src" "$ext/ops/include" "$ext/a" "$ext/b" || exit 2
printf '#pragma once\n#define TOTAL_THREADS 512\n' >"$ext/ops/include/cuda_utils.h"
printf '#pragma once\n' >"$ext/a/common.h"
printf '#pragma once\n' >"$ext/b/common.h"
printf 'from setuptools import setup\nsetup(include_dirs=["ops/include"])\n' >"$ext/setup.py"
cat >"$ext/ops/src/ball.cu" <<'EOF'
#include "cuda_utils.h"
#include "common.h"
__global__ void ball(float *x, int n)
{
  int i = blockIdx.x * TOTAL_THREADS + threadIdx.x;
  if (i < n) x[i] *= 2;
}
EOF
(cd "$ext" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm ext) || exit 2
check "extension: draft" 0 "$hipport" -C "$ext" check draft ops/src/ball.cu
check "extension: bundle" 0 "$hipport" -C "$ext" check bundle "$tmp/eb"
truth "extension: the include found by its name" test -f "$tmp/eb/orig/ops/include/cuda_utils.h" -a -f "$tmp/eb/port/ops/include/cuda_utils.h"
# (that line whole: common.h, which a/ and b/ both have, added no directory)
truth "extension: its directory an -I of the harnesses" grep -qx "INCLUDES='ops/include'" "$tmp/eb/bundle.conf"

# --- the compiler wrapper: each side built for the machine's GPU ------------
mkdir -p "$tmp/bin" || exit 2
printf '#!/bin/sh\necho "$@"\n' >"$tmp/bin/nvcc" && chmod +x "$tmp/bin/nvcc"
w=$b/record/compiler.sh
check "ref: arch replaced" 0 sh "$w" ref "$tmp/bin/nvcc" sm_90 -std=c++14 -arch=sm_60 -c main.cu -o main.o
expect "ref: one arch" "$tmp/out" "-arch=sm_90 -std=c++14 -c main.cu -o main.o"
check "ref: gencode dropped" 0 sh "$w" ref "$tmp/bin/nvcc" sm_90 -gencode arch=compute_60,code=sm_60 \
	-gencode=arch=compute_70,code=sm_70 --gpu-architecture sm_80 x.cu
expect "ref: gencodes replaced" "$tmp/out" "-arch=sm_90 x.cu"
# the recording's launcher needs C++14: NVIDIA's cuda-vmm samples say -std=c++11
check "ref: C++11 raised" 0 sh "$w" ref "$tmp/bin/nvcc" sm_90 x.cu -o x -lcuda -std=c++11
expect "ref: C++14" "$tmp/out" "-arch=sm_90 x.cu -o x -lcuda -std=c++14"
check "amd: gnu++11 raised" 0 sh "$w" amd "$tmp/bin/nvcc" gfx942 -std=gnu++11 x.hip
expect "amd: gnu++14" "$tmp/out" "-std=gnu++14 x.hip"
printf '__global__ void k(float *x) { x[0] = 1; }\n' >"$tmp/k.cpp"
printf 'static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }\n' >"$tmp/host.cpp"
check "proxy: hipcc flags" 0 sh "$w" proxy "$tmp/bin/nvcc" sm_90 /inc -O3 -Wall -fPIC --offload-arch=gfx90a \
	-fgpu-rdc -ffast-math -gline-tables-only -Wl,-rpath,/x -lhipblas -lhipblaslt -c "$tmp/k.cpp" -o k.o
expect "proxy: through the compat header" "$tmp/out" "-arch=sm_90 -include /inc/hip_compat.h -I/inc -x cu"
expect "proxy: host flags" "$tmp/out" "-O3 -Xcompiler -Wall -Xcompiler -fPIC"
expect "proxy: rdc, fast math, line info, linker, library" "$tmp/out" "-rdc=true --use_fast_math -lineinfo -Xlinker -rpath,/x -lcublas -lcublasLt -c $tmp/k.cpp"
truth "proxy: no offload arch" sh -c "! grep -q offload-arch '$tmp/out'"
# a C++ file without device code stays C++ (cuda-samples' mergeSort_host.cpp has its own umin)
check "proxy: a host file" 0 sh "$w" proxy "$tmp/bin/nvcc" sm_90 /inc -c "$tmp/host.cpp" -o host.o
truth "proxy: a host file not taken as CUDA" sh -c "! grep -q -- '-x cu' '$tmp/out'"
check "proxy: .cu and host files" 0 sh "$w" proxy "$tmp/bin/nvcc" sm_90 /inc main.cu "$tmp/host.cpp" -o prog
truth "proxy: nvcc tells them apart" sh -c "! grep -q -- '-x cu' '$tmp/out'"
check "proxy: link step" 0 sh "$w" proxy "$tmp/bin/nvcc" sm_90 /inc a.o b.o -o prog
truth "proxy: objects not taken as CUDA" sh -c "! grep -q -- '-x cu' '$tmp/out'"
check "amd: offload arch replaced" 0 sh "$w" amd "$tmp/bin/nvcc" gfx942 --offload-arch=gfx90a -c k.hip
expect "amd: one offload arch" "$tmp/out" "--offload-arch=gfx942 -DHIP_ENABLE_WARP_SYNC_BUILTINS -c k.hip"
# nvcc's options whose value is a host compiler's flag (NVIDIA's LSTM sample
# builds with -Xcompiler -fpermissive): the value is nvcc's to pass on, not a
# hipcc flag to translate; hipcc takes it directly and has no ptxas
check "proxy: -Xcompiler's value" 0 sh "$w" proxy "$tmp/bin/nvcc" sm_90 /inc -Xcompiler -fpermissive -Xptxas -v x.cu
expect "proxy: passed once" "$tmp/out" "-I/inc --expt-relaxed-constexpr -Xcompiler -fpermissive -Xptxas -v x.cu"
check "ref: -Xcompiler's value" 0 sh "$w" ref "$tmp/bin/nvcc" sm_90 -Xcompiler -std=c++11 x.cu
expect "ref: not raised" "$tmp/out" "-arch=sm_90 -Xcompiler -std=c++11 x.cu"
check "amd: host flags given directly" 0 sh "$w" amd "$tmp/bin/nvcc" gfx942 -Xcompiler -fpermissive,-Wall \
	-Xcompiler=-fPIC -Xptxas -v -Xptxas=-O3 -Xlinker -rpath=/x x.hip
expect "amd: no nvcc-only flags" "$tmp/out" "-DHIP_ENABLE_WARP_SYNC_BUILTINS -fpermissive -Wall -fPIC -Xlinker -rpath=/x x.hip"
check "bad mode" 2 sh "$w" cuda "$tmp/bin/nvcc" sm_90 x.cu
# an nvcc that gives template kernels' stubs internal linkage (CUDA 13): told
# not to, on both NVIDIA sides, so kernels launched from another file link
printf '#!/bin/sh\n[ "$1" = --help ] && echo "--static-global-template-stub {true|false}" && exit 0\necho "$@"\n' \
	>"$tmp/bin/nvcc13" && chmod +x "$tmp/bin/nvcc13"
check "ref: CUDA 13's stubs" 0 sh "$w" ref "$tmp/bin/nvcc13" sm_90 -c k.cu -o k.o
expect "ref: external stubs" "$tmp/out" "-arch=sm_90 -static-global-template-stub=false -c k.cu -o k.o"
check "proxy: CUDA 13's stubs" 0 sh "$w" proxy "$tmp/bin/nvcc13" sm_90 /inc -c k.cu -o k.o
expect "proxy: external stubs" "$tmp/out" "-arch=sm_90 -static-global-template-stub=false -include /inc/hip_compat.h"

# --- the proxy speaks the original's API: a driver program's names ----------
# (NVIDIA's cuda-vmm sample: cuMemCreate with CUmemAllocationProp and
# CU_MEM_LOCATION_TYPE_DEVICE, beside the runtime's cudaError_t checks)
drv=$tmp/drv
mkdir -p "$drv" || exit 2
cat >"$drv/vmm.cu" <<'EOF2'
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void touch(int *p) { p[threadIdx.x] = 1; }
int main()
{
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  CUmemGenericAllocationHandle h;
  CUresult r = cuMemCreate(&h, 1 << 21, &prop, 0);
  cudaError_t e = cudaDeviceSynchronize();
  touch<<<1, 32>>>(0);
  return r != CUDA_SUCCESS || e != cudaSuccess;
}
EOF2
(cd "$drv" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm drv) || exit 2
check "driver: apply" 0 "$hipport" -C "$drv" apply
check "driver: bundle" 0 "$hipport" -C "$drv" check bundle "$tmp/drvb"
compat=$tmp/drvb/proxy/include/hip_compat.h
expect "driver: the original's type" "$compat" "#define hipMemAllocationProp CUmemAllocationProp"
expect "driver: the original's constant" "$compat" "#define hipMemLocationTypeDevice CU_MEM_LOCATION_TYPE_DEVICE"
expect "driver: a call's CUresult as the port's status" "$compat" "#define hipMemCreate(...) ((hipError_t)cuMemCreate(__VA_ARGS__))"
expect "driver: the runtime's status kept" "$compat" "#define hipError_t cudaError_t"
finish
