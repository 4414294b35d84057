#!/bin/sh
# The nvidia-proxy builds what HIP builds: the HIP ports of tests/compile/proxy/
# (mask-less warp intrinsics, cooperative groups, fp16/bf16, hipCUB, PyTorch's
# ROCm names) compile with nvcc (-c, NVCC_ARCH, default sm_90) through the
# proxy headers hipport makes for each, as run.sh builds a port; an original
# CUDA source builds through the same hip_compat.h, as the reference does; and
# a bundle of a HIP source builds end to end. Exit 77 (skipped) without nvcc.
# The torch stubs build against stand-ins of torch's headers (fake-torch/), and
# against the real torch where `python3 -c 'import torch'` works
# (HIPPORT_TEST_PYTHON names another python).
# usage: test-proxy.sh HIPPORT SOURCE_DIR TMP_DIR PROXY_GEN
hipport=$1
src=$2
tmp=$3
gen=$4
arch=${NVCC_ARCH:-sm_90}
nvcc=$(command -v nvcc 2>/dev/null)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -z "$nvcc" ]; then
	echo "skipped: nvcc is not installed"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
ports=$src/tests/compile/proxy

# proxy NAME FILE...: the proxy headers for FILEs, in $tmp/NAME
proxy() {
	name=$1
	shift
	check "proxy headers for $name" 0 "$gen" "$tmp/$name" "$@"
}

# build NAME PROXY FILE [FLAG...]: FILE compiles as run.sh builds a port
build() {
	name=$1
	inc=$tmp/$2
	file=$3
	shift 3
	if "$nvcc" -std=c++17 -arch="$arch" -c -x cu -include "$inc/hip_compat.h" -I"$inc" "$@" \
		-o "$tmp/out.o" "$file" >"$tmp/build.log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: nvcc could not build $(basename "$file"):"
		{ grep -i 'error' "$tmp/build.log" || tail -n 5 "$tmp/build.log"; } | head -n 8 | sed 's/^/  /'
	fi
}

# --- each port through its own headers ------------------------------------
for port in warp coop fp cub_first cub_after; do
	proxy "$port" "$ports/$port.hip"
	build "$port" "$port" "$ports/$port.hip"
done
inc=$tmp/warp
expect "shuffle without a mask: the lanes active at the call" "$inc/hip_compat.h" "auto __shfl_up(A... a) -> decltype(__shfl_up_sync(__activemask(), a...))"
expect "__shfl_xor too" "$inc/hip_compat.h" "auto __shfl_xor(A... a) -> decltype(__shfl_xor_sync(__activemask(), a...))"
expect "64-bit __ballot" "$inc/hip_compat.h" "unsigned long long hipport_ballot(int predicate)"
expect "__any by a function (libcu++ has a struct __any)" "$inc/hip_compat.h" "#define __any hipport_any"
expect "cg::reduce's header" "$tmp/coop/hip/hip_cooperative_groups.h" "#include <cooperative_groups/reduce.h>"
expect "HIP's bf16 type" "$tmp/fp/hip_compat.h" "typedef __nv_bfloat16 __hip_bfloat16;"
expect "older HIP's bf16 type" "$tmp/fp/hip_compat.h" "#define hip_bfloat16 __nv_bfloat16"
expect "hip_bfloat16.h: CUDA's bf16 header" "$tmp/fp/hip/hip_bfloat16.h" "#include <cuda_bf16.h>"
expect "hipCUB is CUB" "$tmp/cub_after/hipcub/block/block_load.hpp" "namespace hipcub = cub;"
# of CUDA names for one HIP name, the one the HIP name was made from (not cuBLAS's legacy cublasStatus)
printf '#include <hipblas/hipblas.h>\nhipblasStatus_t status(void);\n' >"$tmp/blas.hip"
proxy blas "$tmp/blas.hip"
expect "the CUDA name of the same spelling" "$tmp/blas/hip_compat.h" "#define hipblasStatus_t cublasStatus_t"
# a library's include guard (helper_cuda.h's #ifdef CUSPARSEAPI, ported as
# _HIPSPARSE_H_) is defined where the library is included, not in hip_compat.h
printf '#ifdef _HIPSPARSE_H_\nstatic const char *name(hipsparseStatus_t s);\n#endif\n' >"$tmp/guard.hip"
proxy guard "$tmp/guard.hip"
truth "a guard not in hip_compat.h" sh -c "! grep -q '_HIPSPARSE_H_' '$tmp/guard/hip_compat.h'"
printf '#include <hipsparse/hipsparse.h>\n' >"$tmp/guard-used.hip"
proxy guard-used "$tmp/guard-used.hip" "$tmp/guard.hip"
expect "the guard in the library's stub" "$tmp/guard-used/hipsparse/hipsparse.h" "#define _HIPSPARSE_H_ CUSPARSEAPI"
# whatever shape a _sync rule's fallback takes, NAME($2...) defines NAME
mkdir -p "$tmp/rules" && cp "$src"/rules/*.tsv "$tmp/rules/" &&
	sed -i 's/\t__shfl_up(\$2-)$/\t__shfl_up($2, $3)|__shfl_up($2, $3, $4)/' "$tmp/rules/overrides.tsv" || exit 2
expect "a fallback by argument count" "$tmp/rules/overrides.tsv" '__shfl_up($2, $3)|__shfl_up($2, $3, $4)'
check "proxy headers for other rules" 0 "$gen" -r "$tmp/rules" "$tmp/warp-rules" "$ports/warp.hip"
build "warp (__shfl_up's fallback by argument count)" warp-rules "$ports/warp.hip"
truth "only what a port uses" sh -c "! grep -q hipcub '$tmp/warp/hip_compat.h' && ! test -e '$tmp/warp/hipcub'"

# --- the reference: CUDA source through a hip_compat.h with every rename ----
proxy all "$ports/warp.hip" "$ports/coop.hip" "$ports/fp.hip" "$ports/cub_first.hip" "$ports/cub_after.hip"
build "reference with CUB, libcu++ and cooperative groups" all "$ports/orig.cu"

# --- PyTorch's ROCm names ---------------------------------------------------
proxy torch "$ports/torch_names.hip"
build "torch names (stand-in torch headers)" torch "$ports/torch_names.hip" -I"$ports/fake-torch"
expect "ATen/hip stub" "$tmp/torch/ATen/hip/HIPContext.h" "#include <ATen/cuda/CUDAContext.h>"
expect "c10/hip stub" "$tmp/torch/c10/hip/HIPGuard.h" "#include <c10/cuda/CUDAGuard.h>"
expect "Masquerading stream" "$tmp/torch/hipport_torch.h" "getCurrentHIPStreamMasqueradingAsCUDA"
python=${HIPPORT_TEST_PYTHON:-python3}
torch_flags=$("$python" -c '
import sysconfig
from torch.utils.cpp_extension import include_paths
print(" ".join("-I" + p for p in include_paths() + [sysconfig.get_paths()["include"]]))' 2>/dev/null)
if [ -n "$torch_flags" ]; then
	proxy torch_ext "$ports/torch_ext.hip"
	# shellcheck disable=SC2086
	build "torch extension (real torch)" torch_ext "$ports/torch_ext.hip" $torch_flags -DTORCH_EXTENSION_NAME=proxy_test \
		-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ \
		-D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr -Xcompiler -fPIC
else
	echo "skip torch_ext.hip: no torch for $python"
fi

# --- a bundle, end to end ---------------------------------------------------
repo=$tmp/repo
mkdir -p "$repo/src" && cp "$ports/bundle.cu" "$repo/src/kernels.cu" &&
	(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "draft the bundle's spec" 0 "$hipport" -C "$repo" check --draft-spec src/kernels.cu
(cd "$repo" && git add -A && git -c user.name=t -c user.email=t@t commit -qm spec) || exit 2
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/bundle"
check "run.sh: reference and nvidia-proxy port" 0 env NVCC="$nvcc" NVCC_ARCH="$arch" PORT_PLATFORM=nvidia-proxy \
	BUILD_ONLY=1 sh "$tmp/bundle/run.sh"
truth "run.sh: every harness built" python3 -c '
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
bad = [(c["name"], c["message"]) for c in checks if c["status"] != "skipped" or "built" not in c["message"]]
assert checks and not bad, bad
' "$tmp/bundle/results.json"
finish
