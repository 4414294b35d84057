#!/bin/sh
# Golden translation tests: for each input CASE in DIR (any file that is not
# CASE.expected / .args / .stderr / .exit), `hipport translate CASE $(cat CASE.args)`
# must print CASE.expected, and, where they exist, CASE.stderr on standard
# error and exit with the code in CASE.exit (default 0).
# usage: run.sh HIPPORT DIR
hipport=$1
dir=$2
tmp=${TMPDIR:-/tmp}/hipport-golden.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
cd "$dir" || exit 2
for input in *; do
	case $input in
	*.expected | *.args | *.stderr | *.exit | *.md) continue ;;
	esac
	[ -f "$input.expected" ] || { echo "FAIL $input: no $input.expected"; fail=$((fail + 1)); continue; }
	args=""
	[ -f "$input.args" ] && args=$(cat "$input.args")
	want_exit=0
	[ -f "$input.exit" ] && want_exit=$(cat "$input.exit")
	# shellcheck disable=SC2086
	"$hipport" translate "$input" $args >"$tmp/out" 2>"$tmp/err"
	code=$?
	ok=1
	if [ "$code" != "$want_exit" ]; then
		echo "FAIL $input: exit code $code, expected $want_exit"
		cat "$tmp/err"
		ok=0
	fi
	if ! cmp -s "$tmp/out" "$input.expected"; then
		echo "FAIL $input: output differs from $input.expected:"
		diff -u "$input.expected" "$tmp/out" | head -40
		ok=0
	fi
	if [ -f "$input.stderr" ] && ! cmp -s "$tmp/err" "$input.stderr"; then
		echo "FAIL $input: standard error differs from $input.stderr:"
		diff -u "$input.stderr" "$tmp/err" | head -20
		ok=0
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "$(basename "$dir"): $pass passed, $fail failed"
[ $fail = 0 ] && [ $pass -gt 0 ]
