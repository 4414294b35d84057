# Helpers for the command-line tests: check NAME EXPECTED-EXIT COMMAND...
# runs COMMAND with stdout/stderr in $tmp/out and $tmp/err.
pass=0
fail=0

check() {
	name=$1
	want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: exit $got, expected $want"
		sed 's/^/  stderr: /' "$tmp/err" | head -5
	fi
}

# expect NAME FILE PATTERN: FILE contains PATTERN (a fixed string).
expect() {
	if grep -qF -- "$3" "$2"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $1: '$3' not in $(basename "$2"):"
		head -5 "$2" | sed 's/^/  /'
	fi
}

# truth NAME COMMAND...: COMMAND succeeds.
truth() {
	name=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name"
	fi
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}

# need_nvcc: nvcc (NVCC, PATH or /usr/local/cuda) in $nvcc, or the test
# skipped (77) without it.
need_nvcc() {
	nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
	[ -x "$nvcc" ] || { echo "no nvcc: skipped"; exit 77; }
}
