#!/bin/sh
# kill -9 between and during decisions: a scripted review accepts every hunk of
# every file while it is killed at varying moments, again and again. After
# each kill the session must load, no file may be stale (each holds what the
# session says, or what an interrupted decision replaced), and the next review
# resumes; at the end every hunk is accepted and each file is its translation.
# usage: crash.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
repo="$tmp/repo"
cp -r "$src/share/examples/fastops" "$repo" || exit 2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m example) || exit 2
script="$tmp/accept-all.script"
: >"$script"
for i in 1 2 3 4 5 6 7 8 9; do
	printf 'Enter A Tab j\n' >>"$script"
done
(cd "$repo" && "$hipport" status --format json --target-hip=5.2 >/dev/null) # fills the cache

no_stale() {
	(cd "$repo" && "$hipport" status --format json --target-hip=5.2) >"$tmp/status.json" 2>"$tmp/status.err" &&
		python3 -c '
import json, sys
files = json.load(open(sys.argv[1]))["files"]
bad = [f["path"] for f in files if f["state"] == "stale"]
assert not bad, bad
' "$tmp/status.json"
}

delays="0.05 0.15 0.3 0.02 0.4 0.1 0.25 0.07 0.6 0.2 0.12 0.35"
for d in $delays; do
	(cd "$repo" && exec "$hipport" review --script "$script" --target-hip=5.2) >/dev/null 2>&1 &
	pid=$!
	sleep "$d"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	truth "killed after ${d}s: session loads, nothing stale" no_stale
done
# one review to the end: it resumes and finishes the work
(cd "$repo" && "$hipport" review --script "$script" --target-hip=5.2) >/dev/null 2>&1
truth "finished: nothing stale" no_stale
truth "finished: every hunk accepted" python3 -c '
import json, sys
files = json.load(open(sys.argv[1]))["files"]
left = [(f["path"], f["hunks"]) for f in files if f["hunks"]["pending"] or f["hunks"]["rejected"]]
assert not left, left
' "$tmp/status.json"
for f in src/transpose.cu src/histogram.cu include/fastops/ops.h; do
	git -C "$repo" show "HEAD:$f" >"$tmp/orig.cu"
	"$hipport" translate --target-hip=5.2 "$tmp/orig.cu" >"$tmp/port.cu" 2>/dev/null
	truth "finished: $f is its translation" cmp -s "$repo/$f" "$tmp/port.cu"
done
finish
