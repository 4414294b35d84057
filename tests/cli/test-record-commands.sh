#!/bin/sh
# hipport check bundle without [record] sections: each program's build and
# run come from what its directory shows (docs/checks.md, "Build and run
# commands"), and the bundle says which: records.list's fourth column and
# a line per record on standard output. A source with main() that no build
# file governs is built alone; a program whose build file shows no run has
# no record; a [record] section still comes first.
# usage: test-record-commands.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"

repo=$tmp/progs
for p in make readme cmake none single; do
	mkdir -p "$repo/$p" || exit 2
	printf '__global__ void k(float *x) { x[threadIdx.x] *= 2; }\nint main() { return 0; }\n' >"$repo/$p/main.cu"
done
printf 'main: main.cu\n\tnvcc -o main main.cu\nrun: main\n\t./main 4\n' >"$repo/make/Makefile"
cat >"$repo/readme/README.md" <<'EOF'
# readme

```bash
sudo apt-get install nvidia-cuda-toolkit
nvcc -O2 main.cu -o scale
./scale 1024
```
EOF
printf 'project(c LANGUAGES CUDA)\nenable_testing()\nadd_executable(app main.cu)\nadd_test(NAME app COMMAND app)\n' \
	>"$repo/cmake/CMakeLists.txt"
printf '```\npip install numpy\n./main\n```\n' >"$repo/none/README.md"
printf 'clean:\n\trm -f main\n' >"$repo/none/Makefile"
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2

check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b"
expect "said: bundle of 4 programs" "$tmp/out" "bundle of 0 kernel checks and 4 programs to record"
expect "single: origin" "$tmp/out" 'record single: build `"$HIPPORT_CXX" -o main main.cu`, run `./main` (from a source with main(), no build file)'
expect "make: origin" "$tmp/out" 'record make: build `make CC="$HIPPORT_CXX" NVCC="$HIPPORT_CXX"`, run `make run` (from Makefile run target)'
expect "readme: origin" "$tmp/out" 'record readme: build `"$HIPPORT_CXX" -O2 main.cu -o scale`, run `./scale 1024` (from README.md fenced block)'
expect "cmake: origin" "$tmp/out" '(from CMakeLists.txt with CTest (add_test))'
expect "cmake: ctest" "$tmp/out" 'run `ctest --test-dir build-hipport --output-on-failure`'
truth "none: no record" sh -c "! grep -q 'record none' '$tmp/out'"
truth "records.list: four columns" test "$(awk -F '\t' '{ print $1 "|" $4 }' "$tmp/b/records.list")" = \
	"$(printf 'cmake|CMakeLists.txt with CTest (add_test)\nmake|Makefile run target\nreadme|README.md fenced block\nsingle|a source with main(), no build file')"
truth "records.list: install line not taken" sh -c "! grep -q apt-get '$tmp/b/records.list'"

# a [record] section comes first, its origin the configuration
mkdir -p "$repo/.hipport"
printf '[record "none"]\n\tbuild = make\n\trun = ./main 2\n' >"$repo/.hipport/config"
check "bundle with a [record] section" 0 "$hipport" -C "$repo" check bundle "$tmp/c"
expect "config: origin" "$tmp/out" 'record none: build `make`, run `./main 2` (from .hipport/config)'
truth "config: records.list" test "$(cat "$tmp/c/records.list")" = "$(printf 'none\tmake\t./main 2\tconfig')"
finish
