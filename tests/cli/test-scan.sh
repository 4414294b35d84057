#!/bin/sh
# hipport scan: repository walks, formats (SARIF validated against its schema),
# --fail-on, the cache, --jobs, the example project's findings.
# usage: test-scan.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/make-fixture.sh"
repo="$tmp/repo"
make_fixture "$repo" "$src/share/examples/fastops" || { echo "cannot make the fixture"; exit 2; }

# the walk: tracked + untracked, not ignored; links and submodules noted
check "scan text" 0 "$hipport" -C "$repo" scan --target-hip=5.2 --no-cache
expect "tracked file" "$tmp/out" "src/reduce_softmax.cu: "
expect "untracked file" "$tmp/out" "untracked.cu: "
expect "nested file" "$tmp/out" "deep/er/still/nested.cu: "
expect "finding" "$tmp/out" "include/fastops/common.cuh:31:27: error: blas 'cublasGetStatusString' has no HIP equivalent; left as is [API-005]"
expect "total" "$tmp/out" "total: 11 files"
expect "build file walked" "$tmp/out" "CMakeLists.txt: 32 lines"
truth "ignored file not walked" sh -c "! grep -q 'ignored.cu\|kernel.gen.cu' '$tmp/out'"
truth "no CUDA: skipped quietly" sh -c "! grep -q 'plain.cpp' '$tmp/out' '$tmp/err'"
expect "submodule noted" "$tmp/err" "note: vendor/sub: submodule, skipped"
expect "leaving link noted" "$tmp/err" "note: leaving.cu: symbolic link leaving the repository, skipped"
expect "inside link noted" "$tmp/err" "note: inside-link.cu: symbolic link, skipped"
check "quiet" 0 "$hipport" -C "$repo" scan -q --no-cache
truth "quiet: no notes" test ! -s "$tmp/err"

# a subdirectory, and a named file
check "subdirectory" 0 "$hipport" -C "$repo" scan --no-cache deep
expect "subdirectory total" "$tmp/out" "total: 1 files"
check "named file" 0 "$hipport" scan --no-cache "$repo/src/transpose.cu"
expect "named file path" "$tmp/out" "src/transpose.cu: 47 lines"
check "named link leaving" 2 "$hipport" -C "$repo" scan --no-cache leaving.cu
expect "named link message" "$tmp/err" "leaving.cu: a symbolic link leaving the repository"
check "missing path" 2 "$hipport" -C "$repo" scan --no-cache nothere.cu
expect "missing path message" "$tmp/err" "nothere.cu: no such file or directory"

# bad files: a note during walks, exit 2 when named
printf 'x\0__global__' >"$repo/binary.cu"
check "bad files walked" 0 "$hipport" -C "$repo" scan --no-cache
expect "binary note" "$tmp/err" "note: binary.cu: binary file"
check "bad file named" 2 "$hipport" -C "$repo" scan --no-cache binary.cu
expect "bad file named message" "$tmp/err" "hipport: binary.cu: binary file"
check "big file named" 2 "$hipport" -C "$repo" scan --no-cache --max-size=100 src/transpose.cu
expect "big file message" "$tmp/err" "file too large"
rm -f "$repo/binary.cu"

# a .cu file is CUDA by its name, whatever names it uses: listed in a walk as
# translate treats it (it gets the runtime header), not dropped
printf 'int main(void) { return 0; }\n' >"$repo/plain-main.cu"
check "plain .cu walked" 0 "$hipport" -C "$repo" scan --no-cache
expect "plain .cu listed" "$tmp/out" "plain-main.cu: 1 lines, 1 changed (+1 -0)"
truth "total changed is the files' sum" python3 -c '
import re, sys
text = open(sys.argv[1]).read()
files = [m for m in re.finditer(r"^\S+: \d+ lines, (\d+) changed \(\+(\d+) -(\d+)\)", text, re.M)]
total = re.search(r"^total: \d+ files, \d+ lines, (\d+) changed \(\+(\d+) -(\d+)\)", text, re.M)
assert files and total, text
for k in (1, 2, 3):
    assert int(total.group(k)) == sum(int(m.group(k)) for m in files), (k, total.group(0))
' "$tmp/out"
rm -f "$repo/plain-main.cu"

# bytes that are not UTF-8 (Latin-1, Windows-1252, cut sequences) are source,
# in a file's text and its name; JSON and SARIF stay valid UTF-8
printf '// \251 \223q\224 \303\n#include <cuda_runtime.h>\n__global__ void k(int *c) { atomicAdd(c, 1); }\nvoid f() { cudaMemcpyToSymbol(0, 0, 0); puts("\351"); }\n' >"$repo/latin1.cu"
cp "$repo/latin1.cu" "$repo/caf$(printf '\351').cu"
check "latin1 scanned" 0 "$hipport" -C "$repo" scan --no-cache latin1.cu
expect "latin1 listed" "$tmp/out" "latin1.cu:"
check "latin1 json" 0 "$hipport" -C "$repo" scan --no-cache --format json latin1.cu "caf$(printf '\351').cu"
truth "latin1 json valid" python3 "$src/tests/cli/validate.py" "$src/docs/scan-json.schema.json" "$tmp/out"
expect "latin1 path as Windows-1252" "$tmp/out" "caf$(printf '\303\251').cu"
check "latin1 sarif" 0 "$hipport" -C "$repo" scan --no-cache --format sarif latin1.cu "caf$(printf '\351').cu"
truth "latin1 sarif valid" python3 "$src/tests/cli/validate.py" "$src/tests/data/sarif-schema-2.1.0.json" "$tmp/out"
rm -f "$repo/latin1.cu" "$repo/caf$(printf '\351').cu"

# formats
check "json" 0 "$hipport" -C "$repo" scan --format json --target-hip=5.2 --no-cache
cp "$tmp/out" "$tmp/scan.json"
truth "json valid against docs/scan-json.schema.json" python3 "$src/tests/cli/validate.py" \
	"$src/docs/scan-json.schema.json" "$tmp/scan.json"
check "sarif" 0 "$hipport" -C "$repo" scan --format sarif --target-hip=5.2 --no-cache
cp "$tmp/out" "$tmp/scan.sarif"
truth "sarif valid against SARIF 2.1.0" python3 "$src/tests/cli/validate.py" \
	"$src/tests/data/sarif-schema-2.1.0.json" "$tmp/scan.sarif"
truth "sarif content" python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
r = [x for x in run["results"] if x["ruleId"] == "API-005"][0]
assert r["level"] == "error", r
loc = r["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"] == "include/fastops/common.cuh"
assert loc["region"] == {"startLine": 31, "startColumn": 27, "endColumn": 48}, loc["region"]
assert any(x["id"] == "API-005" for x in run["tool"]["driver"]["rules"])
assert run["originalUriBaseIds"]["SRCROOT"]["uri"].startswith("file:///")
# a fix is a SARIF fix: WARP-002 replaces the 32 of "#define WARP_SIZE 32" with
# the platform wavefront macro, and inserts the definition of the macro above it
w = [x for x in run["results"] if x["ruleId"] == "WARP-002"][0]
change = w["fixes"][0]["artifactChanges"][0]
assert change["artifactLocation"]["uri"] == "include/fastops/common.cuh"
reps = change["replacements"]
text = open(sys.argv[2]).read()
rep = [r for r in reps if r["deletedRegion"]["charLength"] == 2][0]
off, n = rep["deletedRegion"]["charOffset"], rep["deletedRegion"]["charLength"]
assert text[off - 18:off + n] == "#define WARP_SIZE 32", text[off - 18:off + n]
assert rep["insertedContent"]["text"] == "HIPPORT_WAVEFRONT_SIZE"
helper = [r for r in reps if r["deletedRegion"]["charLength"] == 0][0]
assert "#define HIPPORT_WAVEFRONT_SIZE 64" in helper["insertedContent"]["text"]
assert helper["deletedRegion"]["charOffset"] == text.index("#define WARP_SIZE 32")
' "$tmp/scan.sarif" "$repo/include/fastops/common.cuh"
check "bad format" 2 "$hipport" -C "$repo" scan --format xml

# the example project's findings: one of each kind it holds, at its place, and none in the transpose
check "example findings" 0 "$hipport" -C "$repo" scan --no-cache --target-hip=5.2 src include
for f in "src/histogram.cu:62:17: error: atomicAdd on __half" \
	"src/reduce_softmax.cu:16:21: warning: shuffle loop starts at offset 16" \
	"src/reduce_softmax.cu:34:20: warning: '& 31' assumes 32-lane warps" \
	"src/reduce_softmax.cu:33:3: warning: shared array of 32 slots indexed by a warp id" \
	"src/reduce_softmax.cu:116:5: warning: __ballot_sync returns a 64-bit lane mask" \
	"src/reduce_softmax.cu:117:14: warning: __popc on a ballot" \
	"src/reduce_softmax.cu:96:12: note: __expf" \
	"src/scaled_add.cu:25:1: warning: __CUDA_ARCH__ version check" \
	"include/fastops/common.cuh:11:1: warning: WARP_SIZE is 32"; do
	expect "example: $f" "$tmp/out" "$f"
done
expect "fix listed" "$tmp/out" "    fix: compare-and-swap loop on the aligned 32-bit word (--fix=ATOM-001)"
truth "transpose tile of 32: no finding" sh -c "! grep -q '^src/transpose.cu:[0-9]' '$tmp/out'"
expect "effort per file" "$tmp/out" "src/reduce_softmax.cu: 151 lines"
check "no analysis" 0 "$hipport" -C "$repo" scan --no-cache --no-analysis src
truth "no analyzer finding" sh -c "! grep -qE '\[(ATOM|WARP|PREC|ARCH|ASM|MEM)-' '$tmp/out'"

# --fail-on
check "fail-on error" 1 "$hipport" -C "$repo" scan -q --fail-on error --no-cache
check "fail-on error, clean file" 0 "$hipport" -C "$repo" scan -q --fail-on error --no-cache src/transpose.cu
check "fail-on note" 1 "$hipport" -C "$repo" scan -q --fail-on=note --no-cache
check "fail-on bad" 2 "$hipport" -C "$repo" scan --fail-on fatal

# suppression: --suppress, scan.suppress in .hipport/config, "hipport: ignore ID" on the line
check "suppress option" 0 "$hipport" -C "$repo" scan -q --no-cache --fail-on error \
	--suppress=API-011,API-005,ATOM-001,ARCH-001,WARP-001,WARP-002,WARP-003,WARP-004,WARP-005,WARP-008,PREC-002,BUILD-004
expect "suppressed total" "$tmp/out" "0 errors, 0 warnings, 0 notes"
mkdir -p "$repo/.hipport"
printf '[scan]\n\tsuppress = API-005, ATOM-001\n\tmaxSize = 20000000\n' >"$repo/.hipport/config"
check "suppress in config" 0 "$hipport" -C "$repo" scan -q --no-cache --fail-on error
printf '[scan\n' >"$repo/.hipport/config"
check "bad config" 2 "$hipport" -C "$repo" scan -q --no-cache
expect "bad config named" "$tmp/err" ".hipport/config"
printf '[scan]\n\tmaxSize = 100\n' >"$repo/.hipport/config"
check "maxSize in config" 0 "$hipport" -C "$repo" scan --no-cache
expect "maxSize applied" "$tmp/err" "file too large"
rm -rf "$repo/.hipport"
mkdir -p "$tmp/ignore"
printf 'void f(int *a) {\n    cudaDeviceFlushGPUDirectRDMAWrites(0, 0); // hipport: ignore API-001\n}\n' >"$tmp/ignore/k.cu"
check "inline ignore" 0 "$hipport" scan --no-cache --fail-on error "$tmp/ignore/k.cu"
expect "inline ignore: file scanned" "$tmp/out" "k.cu: 3 lines"
expect "inline ignore: no finding" "$tmp/out" "0 errors"
printf 'void f(int *a) {\n    cudaDeviceFlushGPUDirectRDMAWrites(0, 0); /* hipport: ignore API-005, API-002 */\n}\n' >"$tmp/ignore/k.cu"
check "inline ignore of other ids" 1 "$hipport" scan --no-cache --fail-on error "$tmp/ignore/k.cu"
expect "inline ignore of other ids: finding" "$tmp/out" "k.cu:2:5: error:"

# what would crash or hang libclang is defused: clang's debugging pragmas, an #include of a device
mkdir -p "$tmp/defuse"
printf '#pragma clang __debug overflow_stack\n#include "/dev/zero"\n_Pragma("clang __debug crash")\n__global__ void k(__half *p, __half v) { atomicAdd(p, v); }\n' >"$tmp/defuse/k.cu"
check "defused parse" 0 "$hipport" scan --no-cache "$tmp/defuse/k.cu"
expect "defused parse still analyzed" "$tmp/out" "k.cu:4:42: error: atomicAdd on __half"

# quoted includes resolve from each file's own directory, also when one
# thread parses files of several directories in turn (and a directory with
# a quote in its name, which no #include can spell)
for d in half single 'q"uote'; do mkdir -p "$tmp/incl/$d"; done
printf 'typedef __half scalar_t;\n' >"$tmp/incl/half/defs.h"
printf 'typedef float scalar_t;\n' >"$tmp/incl/single/defs.h"
printf 'typedef __half scalar_t;\n' >"$tmp/incl/q\"uote/defs.h"
for d in half single 'q"uote'; do
	printf '#include "defs.h"\n__global__ void k(scalar_t *p, scalar_t v) { atomicAdd(p, v); }\n' >"$tmp/incl/$d/k.cu"
done
check "includes per directory" 1 "$hipport" scan --no-cache --jobs 1 --fail-on error "$tmp/incl/half/k.cu" \
	"$tmp/incl/single/k.cu" "$tmp/incl/q\"uote/k.cu"
expect "header of half/" "$tmp/out" "half/k.cu:2:46: error: atomicAdd on __half"
expect "header of q\"uote/" "$tmp/out" "uote/k.cu:2:46: error: atomicAdd on __half"
truth "header of single/" sh -c "! grep -q 'single/k.cu:.*error' '$tmp/out'"

# --jobs: the same report whatever the number of threads
"$hipport" -C "$repo" scan --format json --no-cache --jobs 1 >"$tmp/j1.json" 2>/dev/null
"$hipport" -C "$repo" scan --format json --no-cache --jobs 4 >"$tmp/j4.json" 2>/dev/null
truth "jobs 1 = jobs 4" cmp -s "$tmp/j1.json" "$tmp/j4.json"
check "bad jobs" 2 "$hipport" -C "$repo" scan --jobs 0

# the cache: filled, reused with equal results, invalidated by content and options
rm -rf "$repo/.git/hipport/cache"
"$hipport" -C "$repo" scan --format json >"$tmp/cold.json" 2>/dev/null
truth "cache filled" test -n "$(find "$repo/.git/hipport/cache" -type f | head -1)"
"$hipport" -C "$repo" scan --format json >"$tmp/warm.json" 2>/dev/null
truth "warm = cold" cmp -s "$tmp/cold.json" "$tmp/warm.json"
entries=$(cat "$repo"/.git/hipport/cache/*.pack | grep -ac '^E [0-9a-f]\{40\} ')
printf '\nvoid more() { cudaDeviceSynchronize(); }\n' >>"$repo/src/transpose.cu"
"$hipport" -C "$repo" scan --format json >"$tmp/changed.json" 2>/dev/null
truth "content change seen" sh -c "grep -q '\"lines\": 49' '$tmp/changed.json'"
truth "new entry for changed content" test "$(cat "$repo"/.git/hipport/cache/*.pack | grep -ac '^E [0-9a-f]\{40\} ')" -gt "$entries"
truth "one cache file per set of options" test "$(find "$repo/.git/hipport/cache" -type f | wc -l)" = 1
"$hipport" -C "$repo" scan --format json --kernel-launch=hip >"$tmp/hip.json" 2>/dev/null
"$hipport" -C "$repo" scan --format json --kernel-launch=hip --no-cache >"$tmp/hip-nocache.json" 2>/dev/null
grep -v '"cache":' "$tmp/hip.json" >"$tmp/hip.nc"
grep -v '"cache":' "$tmp/hip-nocache.json" >"$tmp/hip-nocache.nc"
truth "option change: same as uncached" cmp -s "$tmp/hip.nc" "$tmp/hip-nocache.nc"
truth "option change seen" sh -c "! cmp -s '$tmp/hip.json' '$tmp/changed.json'"
echo "corrupt" >"$(find "$repo/.git/hipport/cache" -type f | head -1)"
"$hipport" -C "$repo" scan --format json --kernel-launch=hip >"$tmp/corrupt.json" 2>/dev/null
truth "corrupt entry ignored" cmp -s "$tmp/hip.json" "$tmp/corrupt.json"

# the analyzer reuses a translation unit for the files of a directory: one
# process over all analyzer cases finds what a process per file finds
cases="$src/tests/analyze/cases"
for f in "$cases"/*.cu; do
	"$hipport" scan --no-cache --jobs 1 --target-hip=5.2 "$f" 2>/dev/null | grep ': \(error\|warning\|note\):'
done >"$tmp/each.txt"
"$hipport" scan --no-cache --jobs 1 --target-hip=5.2 "$cases"/*.cu 2>/dev/null | grep ': \(error\|warning\|note\):' >"$tmp/all.txt"
truth "findings per file = in one process" cmp -s "$tmp/each.txt" "$tmp/all.txt"
truth "findings in one process: some" test -s "$tmp/all.txt"

# libclang gets each file with the function bodies no check needs blanked:
# the findings are those of the file parsed as written
for dir in "$cases" "$src/share/examples/fastops" "$src/tests/golden"; do
	"$hipport" scan --no-cache --format json --target-hip=5.2 "$dir" >"$tmp/reduced.json" 2>/dev/null
	HIPPORT_PARSE_WHOLE=1 "$hipport" scan --no-cache --format json --target-hip=5.2 "$dir" >"$tmp/whole.json" 2>/dev/null
	truth "reduced parse = whole parse: ${dir#"$src/"}" cmp -s "$tmp/reduced.json" "$tmp/whole.json"
	truth "reduced parse: findings in ${dir#"$src/"}" grep -q '"id": "' "$tmp/reduced.json"
done

# outside a repository (the build tree lies inside this project's): a plain walk, no cache
plain=$(mktemp -d "${TMPDIR:-/tmp}/hipport-plain.XXXXXX") || exit 2
mkdir -p "$plain/sub"
cp "$src/share/examples/fastops/src/transpose.cu" "$plain/sub/t.cu"
check "plain walk" 0 "$hipport" -C "$plain" scan
expect "plain walk file" "$tmp/out" "./sub/t.cu: 47 lines"
truth "plain walk: no cache" test ! -e "$plain/.git"
rm -rf "$plain"

finish
