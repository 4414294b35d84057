#!/bin/sh
# tools/mine-rocm on a dual-platform file written for this test: the ROCm
# guards it resolves, the sites and kinds it lists, the CUDA side it scans,
# and a scan scored against the sites.
# usage: test-mine-rocm.sh HIPPORT SOURCE_DIR
set -u
hipport=$1
src=$2
tool="$src/tools/mine-rocm"
demo="$src/tests/tools/mine/demo"
. "$src/tests/tools/lib.sh"

sites=$(python3 "$tool" sites "$demo") || { echo "FAIL sites exited $?"; exit 1; }
got=$(printf '%s\n' "$sites" | awk -F '\t' 'NR > 2 { printf "%s-%s:%s:%s ", $6, $7, $8, $10 }')
check "sites: lines, kinds, insertions" \
	"7-7:fp_types:no 13-13:warp_size:no 18-18:warp_intrinsics:no 26-28:launch_bounds:yes 34-34:math_precision:no 39-39:other:no 50-54:other:yes " \
	"$got"

# Not sites: a macro neither side defines, a guard the ROCm macros do not decide.
case $sites in *"	44	"*|*"	48	"*) echo "FAIL a group that is not ROCm-decided is a site"; fail=1 ;; esac

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$tool" sites "$demo" -o "$tmp/sites.tsv"
python3 "$tool" score "$demo" --hipport "$hipport" --sites "$tmp/sites.tsv" --misses --warnings \
	>"$tmp/score" 2>"$tmp/err" || { echo "FAIL score exited $?"; cat "$tmp/err"; exit 1; }
row() { awk -F '\t' -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3 "/" $4 }' "$tmp/score"; }
check "the shuffle site is caught" "1/1" "$(row demo warp_intrinsics)"
check "the warp-size site is caught" "1/1" "$(row demo warp_size)"
check "the header site is caught by the proposal" "1/1" "$(row demo fp_types)"
check "every site is counted" "7" "$(row all '(all)' | cut -d/ -f1)"
grep -q '^warn	demo/kernels.cu:46	ARCH-001$' "$tmp/score" || { echo "FAIL the __CUDA_ARCH__ warning is not listed"; fail=1; }

# A file changed since the sites were listed is refused, naming it.
mkdir -p "$tmp/demo"
cp "$demo/MANIFEST.tsv" "$tmp/demo/"
sed 's/rsqrtf/sqrtf/' "$demo/kernels.cu" >"$tmp/demo/kernels.cu"
python3 "$tool" score "$tmp/demo" --hipport "$hipport" --sites "$tmp/sites.tsv" >/dev/null 2>"$tmp/err"
check "a changed file: exit code" 2 $?
grep -q 'demo/kernels.cu is not the version' "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }

# A project without a manifest, and a manifest row without a path: exit 2, the file named.
mkdir -p "$tmp/empty"
python3 "$tool" sites "$tmp/empty" >/dev/null 2>"$tmp/err"
check "no manifest: exit code" 2 $?
grep -q "$tmp/empty/MANIFEST.tsv: No such file" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
printf 'example/demo\n' >"$tmp/demo/MANIFEST.tsv"
python3 "$tool" sites "$tmp/demo" >/dev/null 2>"$tmp/err"
check "a row without a path: exit code" 2 $?
grep -q "$tmp/demo/MANIFEST.tsv:1: want repo" "$tmp/err" || { echo "FAIL message: $(cat "$tmp/err")"; fail=1; }
[ $fail = 0 ] && echo "mine-rocm: ok"
exit $fail
