#!/bin/sh
# hipport status: the session of a repository, in text and JSON.
# usage: test-status.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/make-fixture.sh"
repo="$tmp/repo"
make_fixture "$repo" "$src/share/examples/fastops" || { echo "cannot make the fixture"; exit 2; }

# a fresh repository: every file pending, with its hunks and findings
check "status" 0 "$hipport" -C "$repo" status --target-hip=5.2 src
expect "pending file" "$tmp/out" "src/histogram.cu: pending, 8 hunks (0 accepted, 0 rejected, 0 edited, 8 pending); 1 errors, 0 warnings, 0 notes"
check "status json" 0 "$hipport" -C "$repo" status --format json --target-hip=5.2 src/transpose.cu
truth "status json content" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "hipport-status" and doc["version"] == 1
f = doc["files"][0]
assert f["path"] == "src/transpose.cu" and f["state"] == "pending", f
assert f["hunks"] == {"total": 3, "accepted": 0, "rejected": 0, "edited": 0, "pending": 3, "conflict": 0,
                      "mergedClean": 0}, f
' "$tmp/out"
check "status bad format" 2 "$hipport" -C "$repo" status --format sarif

# a damaged session is named, never taken for an empty one
mkdir -p "$repo/.git/hipport"
printf '{"version": 1, "files": {"src/transpose.cu": {"base": "nope"}}}' >"$repo/.git/hipport/session.json"
check "damaged session" 2 "$hipport" -C "$repo" status src
expect "damaged session named" "$tmp/err" ".git/hipport/session.json: damaged session file"
rm -f "$repo/.git/hipport/session.json"

# outside a repository there is no session
plain=$(mktemp -d "${TMPDIR:-/tmp}/hipport-plain.XXXXXX") || exit 2
cp "$src/share/examples/fastops/src/transpose.cu" "$plain/t.cu"
check "status outside a repository" 2 "$hipport" -C "$plain" status
expect "status outside message" "$tmp/err" "not inside a git repository"
rm -rf "$plain"

finish
