#!/bin/sh
# tools/mine-triton on a dual-platform Triton file written for this test:
# the platform branches it resolves, the sites and kinds it lists, the
# NVIDIA side it writes (valid Python, lines kept) and a scan scored.
# usage: test-mine-triton.sh HIPPORT SOURCE_DIR
set -u
hipport=$1
src=$2
tool="$src/tools/mine-triton"
demo="$src/tests/tools/mine/triton-demo"
. "$src/tests/tools/lib.sh"

sites=$(python3 "$tool" sites "$demo") || { echo "FAIL sites exited $?"; exit 1; }
got=$(printf '%s\n' "$sites" | awk -F '\t' 'NR > 2 { printf "%s-%s:%s:%s ", $6, $7, $8, $10 }')
check "sites: lines, kinds, insertions" \
	"8-8:num_warps:no 9-9:num_warps:no 19-19:amd_knobs:no 30-30:atomics:no 35-36:amd_knobs:yes 41-42:other:yes " \
	"$got"
# Not sites: a branch that does nothing on either side (backend == "hip": pass),
# a test both platforms pass (torch.cuda.is_available(), x.is_cuda), a definition.
case $sites in *"	37	"*|*"	39	"*|*"	13	"*) echo "FAIL a branch that is not platform-decided is a site"; fail=1 ;; esac

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$tool" sites "$demo" -o "$tmp/sites.tsv"
python3 "$tool" score "$demo" --hipport "$hipport" --sites "$tmp/sites.tsv" --side "$tmp/side" --misses --warnings \
	>"$tmp/score" 2>"$tmp/err" || { echo "FAIL score exited $?"; cat "$tmp/err"; exit 1; }
side="$tmp/side/triton-demo/ops.py"
check "the NVIDIA side keeps the line count" "$(wc -l <"$demo/ops.py")" "$(wc -l <"$side")"
check "a conditional expression becomes NVIDIA's operand" "STATIC_WARPS = 32" "$(sed -n 8p "$side")"
check "an else branch is what NVIDIA runs" "if True:" "$(sed -n 18p "$side")"
check "the AMD branch is gone" "" "$(sed -n 17p "$side")"
python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$side" || { echo "FAIL the NVIDIA side is not Python"; fail=1; }
row() { awk -F '\t' -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3 "/" $4 }' "$tmp/score"; }
check "the warp sites are caught" "2/2" "$(row triton-demo num_warps)"
check "the atomic site is caught" "1/1" "$(row triton-demo atomics)"
check "every site is counted" "6" "$(row all '(all)' | cut -d/ -f1)"
grep -q '^warn	triton-demo/ops.py:8	TRITON-003$' "$tmp/score" || { echo "FAIL the warp count error is not listed"; fail=1; }
grep -q '^miss	triton-demo/ops.py:41	other$' "$tmp/score" || { echo "FAIL the uncaught site is not listed"; fail=1; }

# A file changed since the sites were listed is refused, naming it.
cp -r "$demo" "$tmp/triton-demo"
echo "# changed" >>"$tmp/triton-demo/ops.py"
python3 "$tool" score "$tmp/triton-demo" --hipport "$hipport" --sites "$tmp/sites.tsv" >/dev/null 2>"$tmp/err"
check "a changed file: exit 2" 2 $?
grep -q 'triton-demo/ops.py is not the version' "$tmp/err" || { echo "FAIL the changed file is not named"; cat "$tmp/err"; fail=1; }

# A file that is not Python: exit 2, naming it.
mkdir -p "$tmp/bad" && printf 'x\tbroken.py\t\n' >"$tmp/bad/MANIFEST.tsv" && printf 'def (:\n' >"$tmp/bad/broken.py"
python3 "$tool" sites "$tmp/bad" >/dev/null 2>"$tmp/err"
check "not Python: exit 2" 2 $?
grep -q 'broken.py:1: not Python' "$tmp/err" || { echo "FAIL the bad file is not named"; cat "$tmp/err"; fail=1; }
exit $fail
