#!/bin/sh
# Build files: hipport translate on a CUDA CMakeLists.txt leaves no CUDA
# language or target and sets HIP_ARCHITECTURES; scan, diff and apply on a
# repository take CMakeLists.txt and Makefiles that mention CUDA, and only those.
# usage: test-build.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
golden="$src/tests/golden/build"

# translate: the example project's CMakeLists.txt
check "translate CMakeLists.txt" 0 "$hipport" translate "$src/share/examples/fastops/CMakeLists.txt"
cp "$tmp/out" "$tmp/port.cmake"
truth "no CUDA language left" sh -c "! grep -v '^ *#' '$tmp/port.cmake' | grep -q 'LANGUAGES.*CUDA\|enable_language(CUDA)\|COMPILE_LANGUAGE:CUDA'"
truth "no CUDA:: target left" sh -c "! grep -q 'CUDA::' '$tmp/port.cmake'"
truth "no CMAKE_CUDA_ variable left" sh -c "! grep -v '^ *#' '$tmp/port.cmake' | grep -q 'CMAKE_CUDA_'"
expect "HIP language" "$tmp/port.cmake" "project(fastops LANGUAGES CXX HIP)"
expect "HIP_ARCHITECTURES" "$tmp/port.cmake" "set(CMAKE_HIP_ARCHITECTURES gfx90a)"
expect "hip package" "$tmp/port.cmake" "find_package(hip REQUIRED)"
expect "hipblas package" "$tmp/port.cmake" "find_package(hipblas REQUIRED)"
expect ".cu as HIP" "$tmp/port.cmake" "PROPERTIES LANGUAGE HIP)"
expect "finding on stderr" "$tmp/err" "[BUILD-004]"
check "translate quiet" 0 "$hipport" translate -q "$src/share/examples/fastops/CMakeLists.txt"
truth "quiet: no findings" test ! -s "$tmp/err"
check "offload arch" 0 "$hipport" translate --offload-arch=gfx942 "$golden/CMakeLists.txt"
expect "target property" "$tmp/out" "HIP_ARCHITECTURES \"gfx942\""
truth "golden: no CUDA:: left" sh -c "! grep -v '\[\[' '$golden/CMakeLists.txt.expected' | grep -q 'CUDA::'"
expect "golden: HIP_ARCHITECTURES" "$golden/CMakeLists.txt.expected" "HIP_ARCHITECTURES"
check "bad arch" 2 "$hipport" translate --offload-arch=sm_80 "$golden/CMakeLists.txt"
check "explain" 0 "$hipport" explain BUILD-004
expect "explain title" "$tmp/out" "CUDA architectures replaced by the offload arch"
truth "explain: no cost where none was measured" sh -c "! grep -q 'What the fix costs' '$tmp/out'"
# a fix timed against the original (tools/bench-fixes) says what it costs
check "explain a timed fix" 0 "$hipport" explain PREC-006
expect "explain: the fix's cost" "$tmp/out" "What the fix costs: measured by tools/bench-fixes on an NVIDIA H100"

# a repository: build files that mention CUDA are walked
repo="$tmp/repo"
mkdir -p "$repo/src" "$repo/plain" "$repo/cmake"
cp "$golden/CMakeLists.txt" "$golden/Makefile" "$repo/"
cp "$golden/kernels.mk" "$repo/src/"
printf '__global__ void k(float *x) { x[threadIdx.x] = 0; }\n' >"$repo/src/k.cu"
printf 'project(plain CXX)\nadd_executable(p main.cpp)\n' >"$repo/plain/CMakeLists.txt"
printf 'all:\n\tcc -o p main.c\n' >"$repo/plain/Makefile"
printf 'set(CMAKE_CUDA_STANDARD 17)\n' >"$repo/cmake/cuda.cmake"
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m fixture) ||
	{ echo "cannot make the repository"; exit 2; }
check "scan" 0 "$hipport" -C "$repo" scan --no-cache
expect "scan: CMakeLists.txt" "$tmp/out" "CMakeLists.txt: "
expect "scan: Makefile" "$tmp/out" "Makefile: "
expect "scan: .mk" "$tmp/out" "src/kernels.mk: "
expect "scan: .cmake" "$tmp/out" "cmake/cuda.cmake: "
expect "scan: BUILD finding" "$tmp/out" "[BUILD-002]"
truth "scan: build files without CUDA left out" sh -c "! grep -q 'plain/' '$tmp/out'"
check "scan json" 0 "$hipport" -C "$repo" scan --no-cache --format json
expect "json: BUILD finding" "$tmp/out" "\"BUILD-005\""
check "scan sarif" 0 "$hipport" -C "$repo" scan --no-cache --format sarif
expect "sarif: BUILD rule" "$tmp/out" "\"BUILD-004\""
check "fail-on" 1 "$hipport" -C "$repo" scan --no-cache --fail-on warning CMakeLists.txt
# the cache: a second scan reads build proposals back with their findings
check "scan cached" 0 "$hipport" -C "$repo" scan
check "scan from cache" 0 "$hipport" -C "$repo" scan
cp "$tmp/out" "$tmp/cached"
check "scan uncached" 0 "$hipport" -C "$repo" scan --no-cache
truth "cache round-trips build findings" cmp -s "$tmp/out" "$tmp/cached"
# check.offloadArch of the repository, unless --offload-arch says otherwise
mkdir -p "$repo/.hipport"
printf '[check]\n\toffloadArch = gfx942\n' >"$repo/.hipport/config"
check "diff: configured arch" 0 "$hipport" -C "$repo" diff CMakeLists.txt
expect "diff: gfx942" "$tmp/out" "+  HIP_ARCHITECTURES \"gfx942\""
check "diff: option over config" 0 "$hipport" -C "$repo" diff --offload-arch=gfx1100 CMakeLists.txt
expect "diff: gfx1100" "$tmp/out" "+  HIP_ARCHITECTURES \"gfx1100\""
rm -r "$repo/.hipport"
check "diff" 0 "$hipport" -C "$repo" diff Makefile
expect "diff: hipcc" "$tmp/out" "+NVCC ?= \$(ROCM_PATH)/bin/hipcc"
check "apply" 0 "$hipport" -C "$repo" apply CMakeLists.txt
truth "apply wrote the port" cmp -s "$repo/CMakeLists.txt" "$golden/CMakeLists.txt.expected"
finish
