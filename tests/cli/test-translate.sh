#!/bin/sh
# hipport translate: options, output, exit codes and bad input.
# usage: test-translate.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
example="$src/share/examples/fastops/src/reduce_softmax.cu"

check "help" 0 "$hipport" translate --help
expect "help text" "$tmp/out" "usage: hipport translate FILE"
check "version" 0 "$hipport" --version
expect "version text" "$tmp/out" "hipport "
check "no command" 2 "$hipport"
check "unknown command" 2 "$hipport" frobnicate
check "no file" 2 "$hipport" translate
check "two files" 2 "$hipport" translate a.cu b.cu
check "unknown option" 2 "$hipport" translate --bogus "$example"
expect "unknown option message" "$tmp/err" "unknown option '--bogus'"
check "bad target" 2 "$hipport" translate --target-hip=six "$example"
check "bad launch style" 2 "$hipport" translate --kernel-launch=fast "$example"

# stdout and -o agree; -o replaces atomically and leaves no lock file
check "stdout" 0 "$hipport" translate --target-hip=5.2 "$example"
cp "$tmp/out" "$tmp/stdout.hip"
expect "renamed" "$tmp/stdout.hip" "__shfl_down("
echo "old content" >"$tmp/out.hip"
check "-o" 0 "$hipport" translate --target-hip=5.2 -o "$tmp/out.hip" "$example"
truth "-o equals stdout" cmp -s "$tmp/out.hip" "$tmp/stdout.hip"
truth "no lock file" test ! -e "$tmp/out.hip.lock"
# a lock a killed hipport left is taken over; one a live process holds is not
: >"$tmp/out.hip.lock"
check "stale lock taken over" 0 "$hipport" translate --target-hip=5.2 -o "$tmp/out.hip" "$example"
truth "stale lock gone" test ! -e "$tmp/out.hip.lock"
if command -v flock >/dev/null 2>&1; then
	flock "$tmp/out.hip.lock" sleep 3 &
	holder=$!
	sleep 0.5
	check "held lock" 2 "$hipport" translate --target-hip=5.2 -o "$tmp/out.hip" "$example"
	expect "held lock message" "$tmp/err" "locked"
	wait "$holder"
	rm -f "$tmp/out.hip.lock"
fi
check "-o, quiet stdout" 0 "$hipport" translate --target-hip=5.2 --output="$tmp/o2.hip" "$example"
truth "nothing on stdout with -o" test ! -s "$tmp/out"

# a file with no CUDA is copied byte for byte
printf '#include <stdio.h>\nint main(void) { return 0; }\n' >"$tmp/plain.c"
check "plain C" 0 "$hipport" translate "$tmp/plain.c"
truth "plain C unchanged" cmp -s "$tmp/out" "$tmp/plain.c"

# a path with spaces
mkdir -p "$tmp/with space"
cp "$example" "$tmp/with space/k 1.cu"
check "path with spaces" 0 "$hipport" translate --target-hip=5.2 "$tmp/with space/k 1.cu"
truth "path with spaces output" cmp -s "$tmp/out" "$tmp/stdout.hip"

# unsupported APIs: exit 0, a warning naming file:line:col and the finding id; -q silences it
printf 'void f() { cudaDeviceFlushGPUDirectRDMAWrites(a, b); }\n' >"$tmp/unsup.cu"
check "unsupported API" 0 "$hipport" translate --target-hip=6.2 "$tmp/unsup.cu"
expect "unsupported error" "$tmp/err" "unsup.cu:1:12: error: runtime 'cudaDeviceFlushGPUDirectRDMAWrites' has no HIP equivalent; left as is [API-001]"
check "quiet" 0 "$hipport" translate -q --target-hip=6.2 "$tmp/unsup.cu"
truth "quiet stderr empty" test ! -s "$tmp/err"

# bad input: exit 2, the file named, nothing written
printf 'x\0y' >"$tmp/binary.cu"
: >"$tmp/empty.cu"
printf 'void f() { /* open\n' >"$tmp/broken.cu"
head -c 10000000 /dev/zero | tr '\0' 'a' >"$tmp/big.cu"
for case in "binary.cu:binary file" "empty.cu:file is empty" \
	"broken.cu:1:12: unterminated /* comment" "big.cu:file too large" "missing.cu:no such file" \
	":is a directory"; do
	file=${case%%:*}
	message=${case#*:}
	rm -f "$tmp/result.hip"
	check "bad input $file" 2 "$hipport" translate -o "$tmp/result.hip" "$tmp/$file"
	expect "bad input $file message" "$tmp/err" "$tmp/$file"
	expect "bad input $file reason" "$tmp/err" "$message"
	truth "bad input $file writes nothing" test ! -e "$tmp/result.hip"
done
# bytes that are not UTF-8 are source: ported, byte for byte outside the edits
printf '// \251 Gr\366\337e \223q\224 \303\n#include <cuda_runtime.h>\n__global__ void k() {}\nvoid f() { cudaFree(0); puts("\351\377"); }\n' >"$tmp/latin1.cu"
check "latin1 ported" 0 "$hipport" translate -o "$tmp/latin1.hip" "$tmp/latin1.cu"
sed 's/cudaFree/hipFree/; s|cuda_runtime.h|hip/hip_runtime.h|' "$tmp/latin1.cu" >"$tmp/latin1.want"
truth "latin1 bytes kept" cmp "$tmp/latin1.hip" "$tmp/latin1.want"
echo "keep me" >"$tmp/kept.hip"
check "broken input keeps -o file" 2 "$hipport" translate -o "$tmp/kept.hip" "$tmp/broken.cu"
expect "kept content" "$tmp/kept.hip" "keep me"

# rules from a directory: a malformed line is named with file and line
mkdir -p "$tmp/rules"
printf 'cudaFoo\thipFoo\t-\tfunction\truntime\t-\t-\t-\t1.0\t-\t-\t0\t0\t-\t-\n' >"$tmp/rules/runtime.tsv"
printf 'void f() { cudaFoo(); cudaMalloc(p, 1); }\n' >"$tmp/foo.cu"
check "--rules" 0 "$hipport" translate --rules "$tmp/rules" --target-hip=6.2 "$tmp/foo.cu"
expect "--rules applied" "$tmp/out" "hipFoo(); cudaMalloc(p, 1);"
printf '# header\ncudaBar\thipBar\n' >>"$tmp/rules/runtime.tsv"
check "--rules malformed" 2 "$hipport" translate --rules "$tmp/rules" "$tmp/foo.cu"
expect "--rules malformed message" "$tmp/err" "runtime.tsv:3: expected 15 tab-separated fields, found 2"

# --fix: the fixes of the named findings become part of the port
ex="$src/share/examples/fastops/src"
check "--fix one id" 0 "$hipport" translate --target-hip=5.2 --fix=ATOM-001 "$ex/histogram.cu"
expect "--fix helper inserted" "$tmp/out" "static __device__ __forceinline__ T hipport_atomic_add_16(T *address, V val)"
expect "--fix call rewritten" "$tmp/out" "if (b >= 0) hipport_atomic_add_16(&bins[b], weights[i]);"
truth "--fix helper once" test "$(grep -c 'hipport fix ATOM-001' "$tmp/out")" = 1
check "--fix other id" 0 "$hipport" translate --target-hip=5.2 --fix=WARP-001 "$ex/histogram.cu"
truth "--fix of an absent finding changes nothing" sh -c "! grep -q hipport_atomic_add_16 '$tmp/out'"
check "--fix=all" 0 "$hipport" translate --target-hip=5.2 --fix=all -v "$ex/reduce_softmax.cu"
expect "--fix=all loop" "$tmp/out" "for (int offset = warpSize / 2; offset > 0; offset >>= 1)"
expect "--fix=all lane" "$tmp/out" "const int lane = threadIdx.x & (warpSize - 1);"
expect "--fix=all ballot" "$tmp/out" "const unsigned long long nonzero = __ballot(i < n && in[i] != 0.0f);"
expect "--fix=all count" "$tmp/err" "reduce_softmax.cu: 11 fixes applied"
check "--fix without a template" 2 "$hipport" translate --fix=MEM-001 "$ex/histogram.cu"
expect "--fix without a template message" "$tmp/err" "--fix: MEM-001 has no fix"
check "--fix unknown id" 2 "$hipport" translate --fix=WARP-1 "$ex/histogram.cu"
# an unconverted name keeps its place in the original when a helper went in above it
printf '#include <cuda_fp16.h>\n__global__ void k(__half *p, __half v) {\n  atomicAdd(p, v);\n  cudaDeviceFlushGPUDirectRDMAWrites(0, 0);\n}\n' >"$tmp/fixref.cu"
check "--fix with an API finding" 0 "$hipport" translate --target-hip=5.2 --fix=all "$tmp/fixref.cu"
expect "API finding at its original line" "$tmp/err" "fixref.cu:4:3: error:"

# -p: include paths and defines of compile_commands.json
mkdir -p "$tmp/db/src" "$tmp/db/inc"
printf 'typedef __half scalar_t;\n' >"$tmp/db/inc/types.h"
printf '#include <cuda_fp16.h>\n#include <types.h>\n__global__ void k(scalar_t *p, scalar_t v) { atomicAdd(p, v); }\n' >"$tmp/db/src/k.cu"
printf '[{"directory": "%s", "file": "src/k.cu", "command": "nvcc -Iinc -DX=1 -c src/k.cu"}]\n' "$tmp/db" \
	>"$tmp/db/compile_commands.json"
check "scan without -p" 0 "$hipport" scan --no-cache "$tmp/db/src/k.cu"
truth "type unknown without -p" sh -c "! grep -q ATOM-001 '$tmp/out'"
check "scan -p" 0 "$hipport" scan --no-cache -p "$tmp/db" "$tmp/db/src/k.cu"
expect "type resolved with -p" "$tmp/out" "atomicAdd on __half: HIP has no 16-bit floating-point atomicAdd [ATOM-001]"
check "-p without a database" 2 "$hipport" scan -p "$tmp/rules" "$tmp/db/src/k.cu"
expect "-p message" "$tmp/err" "compile_commands.json"
printf '{"not": "a list"}' >"$tmp/rules/compile_commands.json"
check "-p bad database" 2 "$hipport" scan -p "$tmp/rules" "$tmp/db/src/k.cu"
expect "-p bad database message" "$tmp/err" "not a compilation database"

# -C changes directory first
check "-C" 0 "$hipport" -C "$src/share/examples/fastops" translate --target-hip=5.2 src/reduce_softmax.cu
truth "-C output" cmp -s "$tmp/out" "$tmp/stdout.hip"

# Triton: TRITON-001's fix gives accumulations sem="relaxed" (a trailing
# comma kept valid); an order the author wrote is left as written
triton="$src/tests/analyze/cases/triton.py"
check "triton fix" 0 "$hipport" translate --fix=TRITON-001 "$triton"
expect "accumulation relaxed" "$tmp/out" "tl.atomic_add(counts_ptr + idx, 1, mask=offs < n, sem=\"relaxed\")"
expect "trailing comma" "$tmp/out" "mask=offs < n, sem=\"relaxed\")"
expect "written order left" "$tmp/out" "sem=\"acq_rel\", scope=\"sys\")"
truth "the ticket's kernel left acq_rel" sh -c "grep -c 'sem=\"relaxed\"' '$tmp/out' | grep -qx 5"
truth "only the fix changed the file" sh -c "diff '$triton' '$tmp/out' | grep -c '^>' | grep -qx 3"

finish
