#!/bin/sh
# Each directory of src/ includes only itself and the layers below it, so
# that a library layer never depends on the review or the commands above it
# (README, Layout). usage: layers.sh SOURCE_DIR
src=$1/src
rc=0
allowed() {
	case $1 in
	util) echo "util" ;;
	port) echo "port util" ;;
	analyze) echo "analyze port util" ;;
	build) echo "build analyze util" ;;
	vcs) echo "vcs build util" ;;
	review) echo "review analyze build port util vcs" ;;
	sync) echo "sync analyze build port review util vcs" ;;
	check) echo "check analyze port review util vcs" ;;
	tui) echo "tui analyze build port review util" ;;
	cmd) echo "cmd analyze build check port review sync tui util vcs" ;;
	*) echo "?" ;;
	esac
}
# check/'s rooms, each on the ones before it: the toolchain's facts, kernel
# checks (specs, harnesses, comparison), record-and-compare, bundles (which
# carry both), Slurm (which runs bundles), and the GPU code in built files
# (binary, on the toolchain's archs), the tuning runs of Triton kernels
# (tune, on nothing of the others), and the kernels' times and the
# compiler's resource reports (perf, on nothing: kernel results hold times)
room_allowed() {
	case $1 in
	toolchain) echo "toolchain" ;;
	perf) echo "perf" ;;
	kernel) echo "kernel toolchain perf" ;;
	record) echo "record kernel toolchain" ;;
	binary) echo "binary toolchain" ;;
	bundle) echo "bundle record kernel toolchain" ;;
	slurm) echo "slurm bundle record kernel toolchain" ;;
	tune) echo "tune" ;;
	*) echo "?" ;;
	esac
}
for dir in "$src"/*/; do
	layer=$(basename "$dir")
	ok=$(allowed "$layer")
	[ "$ok" = "?" ] && { echo "FAIL src/$layer: a directory the layering does not know"; rc=1; continue; }
	for f in $(find "$dir" -name '*.[ch]' | sort); do
		for inc in $(sed -n 's/^#include "\([a-z_]*\)\/.*/\1/p' "$f" | sort -u); do
			case " $ok " in
			*" $inc "*) ;;
			*) echo "FAIL ${f#"$1"/} includes $inc/: $layer may include only $ok"; rc=1 ;;
			esac
		done
		[ "$layer" = check ] || continue
		room=$(basename "$(dirname "$f")")
		rok=$(room_allowed "$room")
		[ "$rok" = "?" ] && { echo "FAIL ${f#"$1"/}: a room of check/ the layering does not know"; rc=1; continue; }
		for inc in $(sed -n 's/^#include "check\/\([a-z_]*\)\/.*/\1/p' "$f" | sort -u); do
			case " $rok " in
			*" $inc "*) ;;
			*) echo "FAIL ${f#"$1"/} includes check/$inc/: check/$room may include only $rok"; rc=1 ;;
			esac
		done
	done
done
[ $rc = 0 ] && echo "ok: every layer includes only the ones below it"
exit $rc
