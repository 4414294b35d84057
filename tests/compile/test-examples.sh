#!/bin/sh
# Every translated source of the bundled example builds with the real hipcc
# for gfx90a, in both launch syntaxes, and with every fix taken (--fix=all,
# where the known failures must build too). Exit 77 (skipped) without hipcc.
# HIPPORT_TEST_ARCH, HIPPORT_TEST_HIP and HIPPORT_TEST_HIPCC_FLAGS choose
# another arch, target HIP and flags (tests/lane-gfx942.sh).
# usage: test-examples.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
arch=${HIPPORT_TEST_ARCH:-gfx90a}
hip=${HIPPORT_TEST_HIP:-5.2}
if ! command -v hipcc >/dev/null 2>&1; then
	echo "skipped: hipcc is not installed"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
pass=0
fail=0
skipped=0
for mode in keep hip fixed; do
	launch=$mode fix=
	[ "$mode" = fixed ] && launch=keep fix=--fix=all
	out="$tmp/$mode"
	cp -r "$src/share/examples/fastops" "$out"
	for f in $(cd "$out" && find . -name '*.cu' -o -name '*.cuh' -o -name '*.h'); do
		if ! "$hipport" translate -q --target-hip="$hip" --kernel-launch=$launch $fix -o "$out/$f.port" "$out/$f"; then
			echo "FAIL translate $f"
			fail=$((fail + 1))
			continue
		fi
		mv "$out/$f.port" "$out/$f"
	done
	for f in "$out"/src/*.cu; do
		name=$(basename "$f")
		# a library HIP has but this machine lacks is not the port's fault
		missing=$(sed -n 's/^#include [<"]\(hip[a-z]*\/[a-z_]*\.h\)[>"].*/\1/p' "$f" | while read -r h; do
			[ -e "/usr/include/$h" ] || [ -e "/opt/rocm/include/$h" ] ||
				{ [ -n "${HIPPORT_ROCM_ROOT:-}" ] && [ -e "$HIPPORT_ROCM_ROOT/include/$h" ]; } || echo "$h"; done)
		if [ -n "$missing" ]; then
			echo "skip $mode/$name: $(echo $missing) not installed"
			skipped=$((skipped + 1))
			continue
		fi
		known=
		[ -z "$fix" ] && known=$(awk -F'\t' -v f="$name" -v hip="$hip" '$1 == f && $2 == hip { print $3 }' "$src/tests/compile/known-failures")
		if hipcc --offload-arch="$arch" -std=c++17 ${HIPPORT_TEST_HIPCC_FLAGS:-} -x hip -I "$out/include" -c "$f" -o "$tmp/x.o" \
			2>"$tmp/err"; then
			if [ -n "$known" ]; then
				echo "FAIL $mode/$name builds: remove it from tests/compile/known-failures"
				fail=$((fail + 1))
			else
				pass=$((pass + 1))
			fi
		elif [ -n "$known" ] && grep -qF "$known" "$tmp/err" &&
			[ "$(grep -c 'error:' "$tmp/err")" = "$(grep -F "$known" "$tmp/err" | grep -c 'error:')" ]; then
			echo "known failure $mode/$name: $known"
			pass=$((pass + 1))
		else
			echo "FAIL $mode/$name:"
			grep -E 'error' "$tmp/err" | head -10
			fail=$((fail + 1))
		fi
	done
done
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" = 0 ]
