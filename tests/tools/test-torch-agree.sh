#!/bin/sh
# tools/torch-agree on an extension written for this test: the emulated
# hipify output in both conventions, the agreement it counts, and bad input.
# usage: test-torch-agree.sh HIPPORT SOURCE_DIR
set -u
hipport=$1
src=$2
tool="$src/tools/torch-agree"
ext="$src/tests/tools/torch/ext"
. "$src/tests/tools/lib.sh"
has() { # what, file, fixed string
	grep -qF -- "$3" "$2" || { printf 'FAIL %s: no %s in %s\n' "$1" "$3" "$2"; fail=1; }
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for c in v1 v2; do
	python3 "$tool" "$ext" --hipport "$hipport" --convention $c --emit "$tmp/$c" -o "$tmp/$c.tsv" \
		>"$tmp/$c.out" 2>"$tmp/err" || { echo "FAIL $c exited $?"; cat "$tmp/err"; exit 1; }
done
v1="$tmp/v1/ext/csrc/ops.cu"
v2="$tmp/v2/ext/csrc/ops.cu"
has "v1 stream" "$v1" "hipStream_t stream = at::hip::getCurrentHIPStreamMasqueradingAsCUDA();"
has "v1 guard" "$v1" "const at::hip::OptionalHIPGuardMasqueradingAsCUDA guard(device_of(x));"
has "v1 guard header" "$v1" "#include <ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h>"
has "v1 context header" "$v1" "#include <ATen/hip/HIPContext.h>"
has "v1 launch check" "$v1" "C10_HIP_KERNEL_LAUNCH_CHECK();"
has "v1 std math" "$v1" "x[i] = ::max("
check "v1 runtime header on top" '#include "hip/hip_runtime.h"' "$(head -n 1 "$v1")"
has "v2 keeps the stream name" "$v2" "hipStream_t stream = at::cuda::getCurrentCUDAStream();"
has "v2 keeps the guard" "$v2" "const at::cuda::OptionalCUDAGuard guard(device_of(x));"
has "v2 guard header" "$v2" "#include <c10/hip/HIPGuard.h>"
has "v2 context header" "$v2" "#include <ATen/hip/HIPContext.h>"
# A file hipify leaves alone is written unchanged; comments stay.
cmp -s "$ext/csrc/ops.h" "$tmp/v1/ext/csrc/ops.h" || { echo "FAIL ops.h changed"; fail=1; }
has "comment kept" "$v1" "// A small extension: a kernel launched on PyTorch's current stream."

# The counts: places hipify changed, the std math apart, a row per file and project.
row() { awk -F '\t' -v f="$2" '$3 == f { print $5 "/" $10 }' "$tmp/$1.tsv"; }
check "v1 places and math" "8/1" "$(row v1 csrc/ops.cu)"
check "v2 places and math" "5/1" "$(row v2 csrc/ops.cu)"
check "ops.h has no place" "0/0" "$(row v1 csrc/ops.h)"
grep -q '^v1	ext	(all)	' "$tmp/v1.tsv" || { echo "FAIL no project row"; fail=1; }

# Reference outputs compare like the emulated ones: the emulation agrees with itself.
python3 "$tool" "$ext" --hipport "$hipport" --convention v1 --reference "$tmp/v1" -o "$tmp/ref.tsv" \
	>/dev/null 2>"$tmp/err" || { echo "FAIL --reference exited $?"; cat "$tmp/err"; fail=1; }
check "reference counts" "$(row v1 csrc/ops.cu)" "$(awk -F '\t' '$3 == "csrc/ops.cu" { print $5 "/" $10 }' "$tmp/ref.tsv")"

# Bad input: exit 2 and the file named.
mkdir -p "$tmp/empty"
python3 "$tool" "$tmp/empty" --hipport "$hipport" >/dev/null 2>"$tmp/err"
check "no manifest: exit code" 2 $?
grep -q "$tmp/empty/MANIFEST.tsv: No such file" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
mkdir -p "$tmp/gone"
printf 'example/gone\tcsrc/gone.cu\n' >"$tmp/gone/MANIFEST.tsv"
python3 "$tool" "$tmp/gone" --hipport "$hipport" >/dev/null 2>"$tmp/err"
check "missing file: exit code" 2 $?
grep -q "$tmp/gone/csrc/gone.cu: listed in" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
python3 "$tool" "$ext" --hipport "$hipport" --convention v1 --reference "$tmp/empty" >/dev/null 2>"$tmp/err"
check "missing reference: exit code" 2 $?
grep -q "$tmp/empty/ext/csrc/ops.cu: no reference output" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
[ $fail = 0 ] && echo "torch-agree: ok"
exit $fail
