#!/bin/sh
# hipport diff, apply and apply --undo round trips.
# usage: test-apply.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/make-fixture.sh"
repo="$tmp/repo"
make_fixture "$repo" "$src/share/examples/fastops" || { echo "cannot make the fixture"; exit 2; }
rm -f "$repo/leaving.cu" "$repo/inside-link.cu"
git -C "$repo" add -A && git -C "$repo" commit -q -m "no links"

# diff: libgit2's unified diff of each proposal; it applies cleanly with git apply
check "diff" 0 "$hipport" -C "$repo" diff --target-hip=5.2
cp "$tmp/out" "$tmp/port.diff"
expect "diff header" "$tmp/port.diff" "diff --git a/src/reduce_softmax.cu b/src/reduce_softmax.cu"
expect "diff line" "$tmp/port.diff" "+#include <hip/hip_runtime.h>"
truth "no colour when piped" sh -c "! grep -q \"$(printf '\033')\" '$tmp/port.diff'"
check "diff --color" 0 "$hipport" -C "$repo" diff --color src/transpose.cu
truth "colour when asked" grep -q "$(printf '\033')\[32m" "$tmp/out"
truth "git apply --check" git -C "$repo" apply --check "$tmp/port.diff"

# apply: the working tree becomes the proposals; backups kept
check "apply" 0 "$hipport" -C "$repo" apply --target-hip=5.2
expect "apply summary" "$tmp/err" "hipport: applied 11 files (originals kept in"
git -C "$repo" diff >"$tmp/applied.diff"
truth "apply = diff" sh -c "git -C '$repo' diff --stat | tail -1 | grep -q '11 files changed'"
truth "backup kept" test -f "$repo/.git/hipport/backup/src/reduce_softmax.cu"
truth "no lock files" sh -c "! find '$repo' -name '*.lock' -not -path '*/.git/*' | grep -q ."
check "diff after apply is empty" 0 "$hipport" -C "$repo" diff --target-hip=5.2
truth "empty diff" test ! -s "$tmp/out"

# undo: everything back, byte for byte
check "undo" 0 "$hipport" -C "$repo" apply --undo
expect "undo summary" "$tmp/err" "hipport: restored 11 files"
truth "tree clean after undo" sh -c "test -z \"\$(git -C '$repo' status --porcelain --untracked-files=no)\""
truth "backups dropped" sh -c "test -z \"\$(find '$repo/.git/hipport/backup' -type f)\""

# undo of one path, and an edit after apply is never overwritten
check "apply again" 0 "$hipport" -C "$repo" apply --target-hip=5.2
echo "// my own edit" >>"$repo/src/transpose.cu"
check "undo one directory" 1 "$hipport" -C "$repo" apply --undo src
expect "edited file refused" "$tmp/err" "src/transpose.cu: changed since hipport applied it; not restored"
expect "edit kept" "$repo/src/transpose.cu" "// my own edit"
truth "others restored" git -C "$repo" diff --quiet -- src/reduce_softmax.cu
truth "outside the path untouched" sh -c "! git -C '$repo' diff --quiet -- include"
check "undo the rest" 0 "$hipport" -C "$repo" apply --undo include deep untracked.cu
git -C "$repo" checkout -q src/transpose.cu
check "undo after a manual restore" 0 "$hipport" -C "$repo" apply --undo
truth "all clean" sh -c "test -z \"\$(git -C '$repo' status --porcelain --untracked-files=no)\""

# a named bad file: nothing applied at all
printf 'void f() { /* open\n' >"$repo/broken.cu"
check "apply with a bad named file" 2 "$hipport" -C "$repo" apply src/transpose.cu broken.cu
expect "nothing applied" "$tmp/err" "nothing applied"
truth "tree untouched" git -C "$repo" diff --quiet

# diff and apply --fix: the fixes go into the working tree with the port, and undo takes them back
check "diff --fix" 0 "$hipport" -C "$repo" diff --target-hip=5.2 --fix=ATOM-001 src/histogram.cu
expect "diff --fix shows the fix" "$tmp/out" "+    if (b >= 0) hipport_atomic_add_16(&bins[b], weights[i]);"
check "apply --fix" 0 "$hipport" -C "$repo" apply --target-hip=5.2 --fix=all src/histogram.cu src/reduce_softmax.cu
expect "applied fix" "$repo/src/histogram.cu" "hipport_atomic_add_16(&bins[b], weights[i]);"
expect "applied warp fix" "$repo/src/reduce_softmax.cu" "const int warp = threadIdx.x / warpSize;"
check "scan after apply --fix" 0 "$hipport" -C "$repo" scan --no-cache src/histogram.cu
truth "no ATOM finding left" sh -c "! grep -q ATOM-001 '$tmp/out'"
check "undo apply --fix" 0 "$hipport" -C "$repo" apply --undo
truth "tree clean after undoing fixes" sh -c "test -z \"\$(git -C '$repo' status --porcelain --untracked-files=no)\""

# apply is recorded in the review session as accepting every hunk; --undo forgets it
status_of() { # FILE: "state accepted rejected pending" from hipport status --format json
	"$hipport" -C "$repo" status --format json --target-hip=5.2 "$1" 2>/dev/null | python3 -c '
import json, sys
f = json.load(sys.stdin)["files"][0]
h = f["hunks"]
print(f["state"], h["accepted"], h["rejected"], h["pending"])'
}
check "apply one file" 0 "$hipport" -C "$repo" apply --target-hip=5.2 src/transpose.cu
truth "session: accepted" sh -c "test \"\$(python3 -c 'import json; print(json.load(open(\"$repo/.git/hipport/session.json\"))[\"files\"][\"src/transpose.cu\"][\"hunks\"][0][\"decision\"])')\" = accepted"
got=$(status_of src/transpose.cu)
truth "status after apply ($got)" sh -c "echo '$got' | grep -q '^accepted [1-9][0-9]* 0 0\$'"
check "undo one file" 0 "$hipport" -C "$repo" apply --undo src/transpose.cu
got=$(status_of src/transpose.cu)
truth "status after undo ($got)" sh -c "echo '$got' | grep -q '^pending 0 0 [1-9]'"
truth "tree clean after undo of one" sh -c "test -z \"\$(git -C '$repo' status --porcelain --untracked-files=no)\""
# a file reviewed before: apply accepts what is pending, a rejection stays
printf 'Enter r q\n' >"$tmp/reject.script"
(cd "$repo" && "$hipport" review --script "$tmp/reject.script" --target-hip=5.2 src/scaled_add.cu >/dev/null 2>&1)
check "apply a reviewed file" 0 "$hipport" -C "$repo" apply --target-hip=5.2 src/scaled_add.cu
got=$(status_of src/scaled_add.cu)
truth "reviewed file: rejection kept, the rest accepted ($got)" sh -c "echo '$got' | grep -q '^accepted [1-9][0-9]* 1 0\$'"
truth "reviewed file: the rejected hunk is not applied" sh -c "! grep -q hip/hip_runtime.h '$repo/src/scaled_add.cu'"
truth "reviewed file: the accepted ones are" grep -q hipStream_t "$repo/src/scaled_add.cu"
git -C "$repo" checkout -q -- src/scaled_add.cu && rm -f "$repo/.git/hipport/session.json"

# outside a repository (the build tree lies inside this project's): backups in .hipport-backup
plain=$(mktemp -d "${TMPDIR:-/tmp}/hipport-plain.XXXXXX") || exit 2
cp "$src/share/examples/fastops/src/transpose.cu" "$plain/t.cu"
cp "$plain/t.cu" "$tmp/t.orig"
check "apply outside a repository" 0 "$hipport" -C "$plain" apply
truth "changed" sh -c "! cmp -s '$plain/t.cu' '$tmp/t.orig'"
truth "backup dir" test -d "$plain/.hipport-backup"
check "undo outside a repository" 0 "$hipport" -C "$plain" apply --undo
truth "restored" cmp -s "$plain/t.cu" "$tmp/t.orig"
rm -rf "$plain"

# a warp size with a suffix keeps its type: 32U is (HIPPORT_WAVEFRONT_SIZE + 0U)
plain=$(mktemp -d "${TMPDIR:-/tmp}/hipport-plain.XXXXXX") || exit 2
printf '#define WARP_SIZE 32U\n__global__ void k(float *x) { x[threadIdx.x %% WARP_SIZE] = 1; }\n' >"$plain/w.cu"
check "apply --fix=all: a suffixed warp size" 0 "$hipport" -C "$plain" apply --fix=all
expect "the suffix kept as a type" "$plain/w.cu" "#define WARP_SIZE (HIPPORT_WAVEFRONT_SIZE + 0U)"
truth "no suffix glued to the macro" sh -c "! grep -q 'SIZEU' '$plain/w.cu'"
rm -rf "$plain"

finish
