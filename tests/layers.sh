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
	check) echo "check analyze port review util vcs" ;;
	tui) echo "tui analyze build port review util" ;;
	cmd) echo "cmd analyze build check port review tui util vcs" ;;
	*) echo "?" ;;
	esac
}
for dir in "$src"/*/; do
	layer=$(basename "$dir")
	ok=$(allowed "$layer")
	[ "$ok" = "?" ] && { echo "FAIL src/$layer: a directory the layering does not know"; rc=1; continue; }
	for f in "$dir"*.[ch]; do
		for inc in $(sed -n 's/^#include "\([a-z_]*\)\/.*/\1/p' "$f" | sort -u); do
			case " $ok " in
			*" $inc "*) ;;
			*) echo "FAIL ${f#"$1"/} includes $inc/: $layer may include only $ok"; rc=1 ;;
			esac
		done
	done
done
[ $rc = 0 ] && echo "ok: every layer includes only the ones below it"
exit $rc
