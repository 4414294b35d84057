#!/bin/sh
# Scripted review sessions (hipport review --script), like tig's test harness:
# each tests/tui/NAME.script runs on a fresh git copy of the example project at
# 120x30; every ":save-screen NAME.N" it writes must equal expected/NAME.N, and
# NAME.check (if any) runs afterwards with HIPPORT and REPO set; NAME.config
# (if any) is the repository's .hipport/config, NAME.setup (if any) runs in
# the repository first (with HIPPORT and SOURCE, this project, set), and NAME.requires (if any) names the programs the
# script needs: without one of them it is skipped, with a note.
# UPDATE=1 writes the expected screens instead of comparing them.
# usage: run.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
here="$src/tests/tui"
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
printf '#!/bin/sh\nsed -i "1s|$| // edited|" "$1"\n' >"$tmp/editor" && chmod +x "$tmp/editor" || exit 2
pass=0
fail=0
for script in "$here"/*.script; do
	name=$(basename "$script" .script)
	repo="$tmp/$name"
	missing=
	if [ -f "$here/$name.requires" ]; then
		for program in $(cat "$here/$name.requires"); do
			command -v "$program" >/dev/null 2>&1 || missing="$missing $program"
		done
	fi
	if [ -n "$missing" ]; then
		echo "skipped $name: no$missing"
		continue
	fi
	cp -r "$src/share/examples/fastops" "$repo" || exit 2
	# a fixed date: the commit id is the same every run (screens show it, in Ported-from)
	(cd "$repo" && git init -q . && git add -A &&
		GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
			git -c user.name=t -c user.email=t@t commit -q -m example) || exit 2
	if [ -f "$here/$name.config" ]; then # the repository's shared configuration
		mkdir -p "$repo/.hipport" && cp "$here/$name.config" "$repo/.hipport/config" || exit 2
	fi
	if [ -f "$here/$name.setup" ]; then # what happened before the review
		(cd "$repo" && HIPPORT=$hipport SOURCE=$src sh "$here/$name.setup") >"$tmp/$name.setup.out" 2>&1 ||
			{ echo "FAIL $name.setup:"; sed 's/^/  /' "$tmp/$name.setup.out" | head -5; fail=$((fail + 1)); continue; }
	fi
	# the "editor" of edit scripts appends a mark to the first line it is given
	if ! (cd "$repo" && EDITOR="$tmp/editor" VISUAL= \
		"$hipport" review --script "$script" --size 120x30 --target-hip=5.2 --no-color \
		>"$tmp/$name.out" 2>&1); then
		echo "FAIL $name: review exited $?"
		sed 's/^/  /' "$tmp/$name.out" | head -5
		fail=$((fail + 1))
		continue
	fi
	for screen in "$repo"/"$name".*; do
		[ -f "$screen" ] || continue
		base=$(basename "$screen")
		if [ -n "$UPDATE" ]; then
			cp "$screen" "$here/expected/$base"
		elif ! diff -u "$here/expected/$base" "$screen" >"$tmp/$base.diff"; then
			echo "FAIL $name: $base differs from tests/tui/expected/$base:"
			head -20 "$tmp/$base.diff" | sed 's/^/  /'
			fail=$((fail + 1))
			continue
		fi
		pass=$((pass + 1))
		rm -f "$screen"
	done
	if [ -f "$here/$name.check" ]; then
		if HIPPORT=$hipport REPO=$repo sh "$here/$name.check" >"$tmp/$name.check.out" 2>&1; then
			pass=$((pass + 1))
		else
			echo "FAIL $name.check:"
			sed 's/^/  /' "$tmp/$name.check.out" | head -10
			fail=$((fail + 1))
		fi
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
