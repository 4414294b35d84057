#!/bin/sh
# Record runs built on one machine and run on another (docs/checks.md,
# "Build here, run there"): BUILD_ONLY=1 builds each program's two sides and
# the checks' harnesses; PREBUILT=1 runs them with no compiler at all. A
# Makefile that names nvcc by the toolkit's path ($(CUDA_DIR)/bin/nvcc) and
# calls a runtime function CUDA 12 removed still builds through the wrapper.
# A stand-in nvcc logs its arguments and makes a program that records one
# launch, as the instrumented program would, and the time it reads.
# usage: test-record-steps.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"

repo=$tmp/repo
mkdir -p "$repo/app" "$repo/.hipport" "$tmp/bin" || exit 2
cat >"$repo/app/main.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void twice(float *x, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2;
}
int main()
{
  float *x;
  cudaMalloc(&x, 1024 * sizeof(float));
  twice<<<4, 256>>>(x, 1024);
  cudaThreadSynchronize();
  return 0;
}
EOF
cat >"$repo/app/Makefile" <<'EOF'
CUDA_DIR = /nonexistent/cuda
NVCC = $(CUDA_DIR)/bin/nvcc
app: main.cu
	$(NVCC) -arch=sm_60 main.cu -o app
EOF
printf '[record "app"]\n\tbuild = make\n\trun = ./app\n' >"$repo/.hipport/config"
cat >"$tmp/bin/nvcc" <<'EOF'
#!/bin/sh
echo "$*" >>"${FAKE_LOG:?}"
out=
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && out=$2 && shift
	shift
done
[ -n "$out" ] || exit 0
printf '#!/bin/sh\n[ -n "$FAKE_USAGE" ] && echo "usage: ./app N" && exit 1\n[ -n "$HIPPORT_RECORD_DIR" ] && echo "launch 1 twice" >>"$HIPPORT_RECORD_DIR/launches.log"\n[ -n "$HIPPORT_RECORD_DIR" ] && date +%%s >"$HIPPORT_RECORD_DIR/time"\n[ -n "$FAKE_SLOW" ] && sleep 60\nexit 0\n' >"$out"
chmod +x "$out"
EOF
chmod +x "$tmp/bin/nvcc"
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm app) || exit 2
check "apply" 0 "$hipport" -C "$repo" apply
check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b"

export FAKE_LOG="$tmp/fake.log"
check "build only" 0 env NVCC="$tmp/bin/nvcc" PORT_PLATFORM=nvidia-proxy NVCC_ARCH=sm_90 BUILD_ONLY=1 JOBS=1 \
	sh "$tmp/b/run.sh"
expect "build only: said how to run" "$tmp/out" "PREBUILT=1"
truth "build only: marked built" test -f "$tmp/b/work/built"
r=$tmp/b/work/record/app
truth "build only: both sides built" test -f "$r/ref.built" -a -f "$r/port.built"
truth "build only: nothing run" test ! -s "$r/ref/launches.log"
# the Makefile's own path to nvcc reached the wrapper, on both sides
expect "toolkit root: the original through the wrapper" "$FAKE_LOG" "-arch=sm_90 main.cu -o app -include"
expect "toolkit root: removed calls supplied" "$FAKE_LOG" "cuda_legacy.h"
expect "toolkit root: the port through the proxy" "$FAKE_LOG" "hip_compat.h"
expect "toolkit root: the port, constexpr functions on the device as in HIP" "$FAKE_LOG" "--expt-relaxed-constexpr"
truth "toolkit root: no -arch=sm_60" sh -c "! grep -q sm_60 '$FAKE_LOG'"
lines=$(wc -l <"$FAKE_LOG")

check "prebuilt: no compiler needed" 0 env NVCC=/nonexistent/nvcc PREBUILT=1 JOBS=1 sh "$tmp/b/run.sh"
truth "prebuilt: the original recorded twice" test -s "$r/ref/launches.log" -a -s "$r/ref2/launches.log"
truth "prebuilt: the port recorded" test -s "$r/port/launches.log"
expect "prebuilt: the port's platform kept" "$r/port/platform" "nvidia-proxy"
truth "prebuilt: nothing compiled" test "$(wc -l <"$FAKE_LOG")" = "$lines"
# every run reads the same wall clock (a program seeding from the time
# makes the same inputs), built with the programs; HIPPORT_RECORD_CLOCK=0
# gives the real one
truth "clock: built with the programs" test -f "$r/hipport_clock.so"
truth "clock: the original's runs read one time" test "$(cat "$r/ref/time")" = 1700000000 -a "$(cat "$r/ref2/time")" = 1700000000
truth "clock: the port's too" test "$(cat "$r/port/time")" = 1700000000
check "clock: off" 0 env PREBUILT=1 JOBS=1 HIPPORT_RECORD_CLOCK=0 sh "$tmp/b/run.sh"
truth "clock: off, the real time" test "$(cat "$r/ref/time")" -gt 1700000000
check "prebuilt: again, same result" 0 env PREBUILT=1 JOBS=1 sh "$tmp/b/run.sh"
truth "prebuilt: a run's launches not doubled" test "$(grep -c . "$r/ref/launches.log")" = 1

# a run past HIPPORT_RECORD_TIMEOUT is stopped, its launches kept
check "prebuilt: a run that hangs" 0 env PREBUILT=1 JOBS=1 FAKE_SLOW=1 HIPPORT_RECORD_TIMEOUT=1 sh "$tmp/b/run.sh"
expect "prebuilt: said so" "$tmp/out" "ran past HIPPORT_RECORD_TIMEOUT"
truth "prebuilt: its launch kept" test -s "$r/port/launches.log"
# a program that stops at its usage line: what to give it, said
rm -rf "$r/ref" "$r/ref2" "$r/port"
check "prebuilt: a run that wants arguments" 0 env PREBUILT=1 JOBS=1 FAKE_USAGE=1 sh "$tmp/b/run.sh"
expect "prebuilt: its usage line named" "$tmp/out" 'no launch recorded: the program stopped at its usage line (usage: ./app N): give the run command its arguments in .hipport/config, [record "app"] run = ...'
check "bad HIPPORT_RECORD_TIMEOUT" 2 env HIPPORT_RECORD_TIMEOUT=soon HIPPORT_RECORD_STEP=run sh "$tmp/b/record.sh" app make ./app

rm -rf "$tmp/b/work"
check "prebuilt: nothing built is an error" 2 env PREBUILT=1 sh "$tmp/b/run.sh"
expect "prebuilt: says so" "$tmp/err" "BUILD_ONLY=1 builds it"

# a torch extension's port through the proxy: its host C++ goes to $CXX,
# which sees the proxy's headers and takes the file's own USE_ROCM branch
# (torch's ROCm build defines it), under a name torch's headers do not test
ext=$tmp/ext
mkdir -p "$ext/op" "$ext/.hipport" || exit 2
printf '#ifdef USE_ROCM\nint rocm_branch = 1;\n#else\nint rocm_branch = 0;\n#endif\n' >"$ext/op/host.cpp"
printf '__global__ void k(float *x) { x[0] = 1; }\n' >"$ext/op/k.cu"
cat >"$ext/op/setup.py" <<'EOF'
import os, subprocess, sys
cxx = os.environ.get("CXX", "c++").split()
sys.exit(subprocess.call(cxx + ["-E", "host.cpp", "-o", "host.i"]))
EOF
printf '[record "op"]\n\tbuild = python3 setup.py build_ext\n\trun = true\n' >"$ext/.hipport/config"
(cd "$ext" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm ext) || exit 2
check "extension: bundle" 0 "$hipport" -C "$ext" check bundle "$tmp/eb"
check "extension: build only" 0 env NVCC="$tmp/bin/nvcc" PORT_PLATFORM=nvidia-proxy NVCC_ARCH=sm_90 BUILD_ONLY=1 \
	JOBS=1 sh "$tmp/eb/run.sh"
t=$tmp/eb/work/record/op/trees
expect "extension: the port's USE_ROCM branch" "$t/port/op/host.i" "rocm_branch = 1"
expect "extension: the original's own branch" "$t/orig/op/host.i" "rocm_branch = 0"
finish
