#!/bin/sh
# The golden ports build: each source case of tests/golden/*/ is translated
# and compiled with hipcc (-fsyntax-only) for HIPPORT_TEST_ARCH (gfx90a).
# The default lane translates a case with its own .args (the port its
# .expected holds) and compiles it when the installed HIP is at least the
# case's target; the gfx942 lane (tests/lane-gfx942.sh) translates every case
# again for HIPPORT_TEST_HIP (6.4).
# Not compiled, and said why: a case whose translation reports an error (an
# API left as is, on purpose: the port cannot build), one that includes a HIP
# library's or PyTorch's header this hipcc lacks or a header of its own that
# the case does not carry, and the cases of tests/golden/not-built
# (which must then fail as that file says: the test fails when one builds).
# usage: compile.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
arch=${HIPPORT_TEST_ARCH:-gfx90a}
command -v hipcc >/dev/null 2>&1 || { echo "skipped: hipcc is not installed"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
installed=$(hipconfig --version 2>/dev/null | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
[ -n "$installed" ] || { echo "FAIL: hipconfig --version gave no version"; exit 1; }
set -- $installed
installed=$(($1 * 100 + $2))
# where this hipcc's HIP library headers are: a ROCm root's alone (tools/rocm-root), else the system's
incdirs="/usr/include /opt/rocm/include"
[ -n "${HIPPORT_ROCM_ROOT:-}" ] && incdirs="$HIPPORT_ROCM_ROOT/include"
pass=0 fail=0 skipped=0

version_of() { # "5.4" -> 504
	echo "$1" | awk -F. '{ print $1 * 100 + $2 }'
}
missing_header() { # the first header PORT includes that is not here: a HIP library's or PyTorch's
	# <header> that no include dir has, or a "header" the case does not carry
	{
		sed -n 's/^[ \t]*#[ \t]*include[ \t]*<\(\(hip\|roc\|miopen\|rccl\|torch\|ATen\|c10\)[^>]*\)>.*/\1/p' "$1"
		sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$1"
	} | while read -r h; do
		found=
		for d in $incdirs "$2"; do [ -e "$d/$h" ] && found=1 && break; done
		[ -z "$found" ] && echo "$h" && break
	done
}

cd "$src/tests/golden" || exit 2
for input in */*; do
	case $input in
	*.expected | *.args | *.stderr | *.exit | *.md | *.sh) continue ;;
	*.cu | *.cuh | *.cpp | *.cc | *.cxx | *.h | *.hpp) ;;
	*) continue ;;
	esac
	[ -f "$input.expected" ] || continue
	[ -f "$input.exit" ] && [ "$(cat "$input.exit")" != 0 ] && continue
	args=""
	[ -f "$input.args" ] && args=$(cat "$input.args")
	target=$(echo "$args" | sed -n 's/.*--target-hip=\([0-9.]*\).*/\1/p')
	if [ -n "${HIPPORT_TEST_HIP:-}" ]; then
		args="$args --target-hip=$HIPPORT_TEST_HIP"
	elif [ -n "$target" ] && [ "$(version_of "$target")" -gt "$installed" ]; then
		echo "skip $input: made for HIP $target, hipcc has $(hipconfig --version | cut -d- -f1)"
		skipped=$((skipped + 1))
		continue
	fi
	port="$tmp/$(echo "$input" | tr / _).hip"
	# shellcheck disable=SC2086
	"$hipport" translate "$input" $args -o "$port" 2>"$tmp/translate.err"
	if grep -q ' error: ' "$tmp/translate.err"; then
		echo "skip $input: the port leaves an API as is ($(grep -m1 -o "'[^']*'" "$tmp/translate.err" | head -n 1))"
		skipped=$((skipped + 1))
		continue
	fi
	h=$(missing_header "$port" "$(dirname "$input")")
	if [ -n "$h" ]; then
		echo "skip $input: $h is not here"
		skipped=$((skipped + 1))
		continue
	fi
	reason=$(awk -F'\t' -v f="$input" '$1 == f { print $2 }' not-built)
	if hipcc --offload-arch="$arch" -std=c++17 ${HIPPORT_TEST_HIPCC_FLAGS:-} -fsyntax-only -x hip -I "$(dirname "$input")" \
		"$port" >"$tmp/err" 2>&1; then
		if [ -n "$reason" ]; then
			echo "FAIL $input builds: remove it from tests/golden/not-built"
			fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	elif [ -n "$reason" ]; then
		echo "not built $input: $reason"
		skipped=$((skipped + 1))
	else
		echo "FAIL $input ($port):"
		grep 'error' "$tmp/err" | head -n 5
		fail=$((fail + 1))
	fi
done
echo "golden ports for $arch: $pass built, $fail failed, $skipped not compiled"
[ "$fail" = 0 ]
