#!/bin/sh
# The kernel-check harnesses of the bundled example build: the reference
# (original CUDA, nvcc) and the port through the nvidia-proxy header (nvcc),
# and the port for gfx90a (hipcc). In the gfx942 lane the port is made for
# HIP 6.4, and the proxy builds it too (64-bit lane masks). Each half is skipped without its compiler;
# exit 77 (skipped) with neither.
# usage: test-harnesses.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
arch=${HIPPORT_TEST_ARCH:-gfx90a}
nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
hipcc=$(command -v hipcc 2>/dev/null)
if [ -z "$nvcc" ] && [ -z "$hipcc" ]; then
	echo "skipped: neither nvcc nor hipcc is installed"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
repo="$tmp/repo"
cp -r "$src/share/examples/fastops" "$repo" &&
	(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
# the ports with their fixes: HIP 5.2 has no fp16 atomicAdd
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/bundle" --fix=all --target-hip="${HIPPORT_TEST_HIP:-5.2}"
built='
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
assert len(checks) == 8, len(checks)
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
# the record trees (every launch through hipport_record.h) build as programs:
# the original with nvcc, the port through the proxy and with hipcc
rec="$tmp/bundle/record"
truth "record: launches instrumented" grep -q "HIPPORT_RECORD_LAUNCH(" "$rec/orig/src/scaled_add.cu"
# (compiled, not linked: gemm_host.cu needs cuBLAS or hipBLAS)
files="src/scaled_add.cu src/histogram.cu src/reduce_softmax.cu src/transpose.cu"
if [ -n "$nvcc" ]; then
	check "record: original, nvcc" 0 sh -c "cd '$rec/orig' && for f in $files; do
		'$nvcc' -std=c++17 -arch=sm_90 -Iinclude -c -o '$tmp/rec.o' \$f || exit 1; done"
	check "record: port through the proxy, nvcc" 0 sh -c "cd '$rec/port' && for f in $files; do
		'$nvcc' -std=c++17 -arch=sm_90 -include '$tmp/bundle/proxy/include/hip_compat.h' -I'$tmp/bundle/proxy/include' \
			-Iinclude -c -o '$tmp/rec.o' \$f || exit 1; done"
fi
if [ -n "$hipcc" ]; then
	check "record: port for $arch, hipcc" 0 sh -c "cd '$rec/port' && for f in $files; do
		'$hipcc' -std=c++17 --offload-arch=$arch ${HIPPORT_TEST_HIPCC_FLAGS:-} -Iinclude -c -o '$tmp/rec.o' -x hip \$f || exit 1; done"
fi
finish
