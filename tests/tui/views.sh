#!/bin/sh
# The review TUI's shape (docs/review.md, The TUI): a view is a file of
# src/tui/ that ends in a tui_view_ops table, and it knows only the core.
# No view includes another view's header; no header but a view's own includes
# one, and only the core (view.c) includes them all. Prints src/tui's include
# graph. usage: views.sh SOURCE_DIR
tui=$1/src/tui
rc=0
views=$(grep -l '^const tui_view_ops tui_[a-z]*_view = {' "$tui"/*.c | sed 's|.*/||; s|\.c$||' | sort)
[ -n "$views" ] || { echo "FAIL: no views in src/tui"; exit 1; }
is_view() {
	for v in $views; do [ "$v" = "$1" ] && return 0; done
	return 1
}
for f in "$tui"/*.c "$tui"/*.h; do
	name=$(basename "$f")
	base=${name%.*}
	incs=$(sed -n 's|^#include "tui/\([a-z_]*\)\.h".*|\1|p' "$f" | sort -u | tr '\n' ' ')
	echo "$name -> ${incs:-(none of tui)}"
	for inc in $incs; do
		is_view "$inc" || continue
		[ "$inc" = "$base" ] && continue # a view's file and its own header
		[ "$name" = view.c ] && continue # the core opens every view
		echo "FAIL $name includes tui/$inc.h: only the core knows the views"
		rc=1
	done
done
# each view is in the core's list, and its header declares its ops alone
for v in $views; do
	grep -q "^#include \"tui/$v.h\"" "$tui/view.c" || { echo "FAIL view.c does not include tui/$v.h"; rc=1; }
	grep -q "^extern const tui_view_ops tui_${v}_view;" "$tui/$v.h" ||
		{ echo "FAIL tui/$v.h does not declare tui_${v}_view"; rc=1; }
done
[ $rc = 0 ] && echo "ok: views $(echo $views | tr '\n' ' ')know only the core"
exit $rc
