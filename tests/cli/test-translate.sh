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
expect "unsupported warning" "$tmp/err" "unsup.cu:1:12: warning: runtime 'cudaDeviceFlushGPUDirectRDMAWrites' has no HIP equivalent; left as is [API-001]"
check "quiet" 0 "$hipport" translate -q --target-hip=6.2 "$tmp/unsup.cu"
truth "quiet stderr empty" test ! -s "$tmp/err"

# bad input: exit 2, the file named, nothing written
printf 'x\0y' >"$tmp/binary.cu"
printf 'int \377 x;\n' >"$tmp/latin1.cu"
: >"$tmp/empty.cu"
printf 'void f() { /* open\n' >"$tmp/broken.cu"
head -c 10000000 /dev/zero | tr '\0' 'a' >"$tmp/big.cu"
for case in "binary.cu:binary file" "latin1.cu:1:5: invalid UTF-8" "empty.cu:file is empty" \
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

# -C changes directory first
check "-C" 0 "$hipport" -C "$src/share/examples/fastops" translate --target-hip=5.2 src/reduce_softmax.cu
truth "-C output" cmp -s "$tmp/out" "$tmp/stdout.hip"

finish
