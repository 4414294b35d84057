#!/bin/sh
# hipport translate --single-source: the CUDA text kept, each fix guarded by
# a macro with the original lines in #else; the guarded side builds with
# hipcc once the build's hipify has run (here: hipport translate), and the
# other side is the original, line for line.
# usage: test-single-source.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
cases="$src/tests/analyze/cases"

# The original side: each #ifdef MACRO ... #else ... #endif that hipport
# wrote, with the #else lines kept (and a whole-line insertion dropped).
original_side() {
	python3 - "$1" "$2" <<'PY'
import sys
path, macro = sys.argv[1], sys.argv[2]
out, state, depth = [], None, 0
for line in open(path, encoding="latin-1").read().split("\n"):
    word = line.strip().lstrip("#").strip().split(" ")[0] if line.strip().startswith("#") else ""
    if state is None and line == "#ifdef " + macro:
        state, depth = "fixed", 0
        continue
    if state is not None and word in ("if", "ifdef", "ifndef"):
        depth += 1
    elif state is not None and depth and word == "endif":
        depth -= 1
    elif state is not None and not depth and line == "#else":
        state = "original"
        continue
    elif state is not None and not depth and line == "#endif":
        state = None
        continue
    if state != "fixed":
        out.append(line)
sys.stdout.write("\n".join(out))
PY
}

cat >"$tmp/ext.cu" <<'CU'
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = rsqrtf(x[i]);
}

void run(float *x, int n)
{
	scale<<<(n + 1023) / 1024, 1024>>>(x, n);
}
CU
check "torch file" 0 "$hipport" translate --single-source --fix=all "$tmp/ext.cu"
cp "$tmp/out" "$tmp/ext.single.cu"
expect "USE_ROCM for a torch file" "$tmp/ext.single.cu" "#ifdef USE_ROCM"
expect "launch bounds in the guarded branch" "$tmp/ext.single.cu" "__launch_bounds__(1024) scale"
expect "CUDA names kept" "$tmp/ext.single.cu" "#include <cuda_runtime.h>"
original_side "$tmp/ext.single.cu" USE_ROCM >"$tmp/ext.orig"
truth "the #else side is the original" cmp -s "$tmp/ext.orig" "$tmp/ext.cu"

check "no fixes taken" 0 "$hipport" translate --single-source "$tmp/ext.cu"
truth "without fixes the file is unchanged" cmp -s "$tmp/out" "$tmp/ext.cu"
check "named macro" 0 "$hipport" translate --single-source=PORT_FOR_AMD --fix=PREC-006 "$tmp/ext.cu"
expect "named macro used" "$tmp/out" "#ifdef PORT_FOR_AMD"
check "bad macro" 2 "$hipport" translate --single-source=1x --fix=all "$tmp/ext.cu"
expect "bad macro message" "$tmp/err" "not a macro name"

# The analyzer's cases whose fixes build: single-source, then the build's
# hipify, then hipcc for gfx90a; and the original side is the original.
for f in warp_given.cu bounds.cu precision.cu; do
	check "$f single source" 0 "$hipport" translate --single-source --fix=all "$cases/$f"
	cp "$tmp/out" "$tmp/$f.single.cu"
	expect "$f guarded" "$tmp/$f.single.cu" "#ifdef __HIP_PLATFORM_AMD__"
	original_side "$tmp/$f.single.cu" __HIP_PLATFORM_AMD__ >"$tmp/$f.orig"
	truth "$f: the #else side is the original" cmp -s "$tmp/$f.orig" "$cases/$f"
	if command -v hipcc >/dev/null 2>&1; then
		check "$f hipified" 0 "$hipport" translate --target-hip=5.2 -o "$tmp/$f.hip.cpp" "$tmp/$f.single.cu"
		check "$f builds with hipcc" 0 hipcc -c --offload-arch=gfx90a -o "$tmp/$f.o" "$tmp/$f.hip.cpp"
	fi
done

# A repository that keeps single-source ports (port.singleSource): apply
# writes the guarded branches, the compile check builds the hipified guarded
# side, and a bundle's port is that side with the macro defined.
repo="$tmp/repo"
mkdir -p "$repo/.hipport" && cp "$cases/bounds.cu" "$repo/" && cd "$repo" || exit 2
git init -q -b main . && git config user.name Engineer && git config user.email eng@example.com || exit 2
printf '[port]\n\tsingleSource = true\n' >.hipport/config
git add -A && git commit -q -m "CUDA" || exit 2
check "apply" 0 "$hipport" apply --fix=all bounds.cu
expect "working tree guarded" "$repo/bounds.cu" "#ifdef __HIP_PLATFORM_AMD__"
truth "working tree not hipified" sh -c "! grep -q hip_runtime '$repo/bounds.cu'"
check "draft specs" 0 "$hipport" check --draft-spec bounds.cu
check "bundle" 0 "$hipport" check --bundle "$tmp/bundle" bounds.cu
expect "bundle port: macro defined" "$tmp/bundle/port/bounds.cu" "#define __HIP_PLATFORM_AMD__ 1"
expect "bundle port: hipified" "$tmp/bundle/port/bounds.cu" "hip/hip_runtime.h"
expect "bundle port: the guarded branch" "$tmp/bundle/port/bounds.cu" "__launch_bounds__"
truth "bundle original: the CUDA file" cmp -s "$tmp/bundle/orig/bounds.cu" "$cases/bounds.cu"
if command -v hipcc >/dev/null 2>&1; then
	check "compile check of the guarded side" 0 "$hipport" check --offload-arch=gfx90a --no-cache bounds.cu
	expect "compile passes" "$tmp/out" "pass"
fi
printf '[port]\n\tsingleSource = 9x\n' >.hipport/config
check "bad port.singleSource" 2 "$hipport" scan
expect "bad port.singleSource message" "$tmp/err" "port.singleSource"
cd - >/dev/null || exit 2

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
