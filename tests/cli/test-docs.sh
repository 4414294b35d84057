#!/bin/sh
# The man page names every command and option the program has, and the bash
# completion completes commands, options and finding ids.
# usage: test-docs.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
man="$src/share/man/hipport.1"
"$hipport" --help >"$tmp/help" 2>&1
for cmd in $(sed -n 's/^  \([a-z]*\) .*/\1/p' "$tmp/help"); do
	truth "man page: command $cmd" grep -q "^\.BR* $cmd\|^\.BI \"$cmd " "$man"
	"$hipport" "$cmd" --help >"$tmp/cmd-help" 2>&1
	for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/cmd-help" | sort -u); do
		esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		truth "man page: $cmd $opt" grep -q -- "$esc" "$man"
	done
done
for key in j k Tab Enter n p a r A R e o t u q; do
	truth "man page: key $key" grep -q "^\.B.* $key\b\|^\.B $key\|^\.BR $key" "$man"
done
for code in 0 1 2 3; do
	truth "man page: exit $code" grep -q "^\.B $code$" "$man"
done

complete() { # complete WORD...: the completions of the last word
	PATH="$(dirname "$hipport"):$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hipport; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$src/share/completion/hipport.bash" "$@"
}
complete hipport ex >"$tmp/c1"
expect "completes commands" "$tmp/c1" "explain"
complete hipport explain WARP-00 >"$tmp/c2"
expect "completes finding ids" "$tmp/c2" "WARP-001"
complete hipport translate --fix=ATOM-001,ATOM-00 >"$tmp/c3"
expect "completes ids after a comma" "$tmp/c3" "--fix=ATOM-001,ATOM-002"
complete hipport scan --fo >"$tmp/c4"
expect "completes options" "$tmp/c4" "--format="
finish
