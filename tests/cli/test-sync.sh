#!/bin/sh
# hipport sync: a port made at upstream v1, with hand edits committed on
# its branch, synced to v2. Each case of the merge as the working tree and
# the session then have it; remove and keep; refusals; a kill -9 at any
# moment, resumed to the same result as a sync never interrupted.
# usage: test-sync.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
hp() { "$hipport" -C "$repo" "$@"; }
g() { git -C "$repo" "$@"; }

kernel() { # kernel NAME: a small CUDA program
	cat <<EOF
#include <cuda_runtime.h>
#include <cstdio>

__global__ void $1(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

int main()
{
	int n = 256;
	float *x;
	cudaMalloc(&x, n * sizeof(float));
	$1<<<1, 256>>>(x, n);
	cudaDeviceSynchronize();
	cudaFree(x);
	printf("done\\n");
	return 0;
}
EOF
}

# upstream v1, and the port of it: apply, commit, then hand edits committed with git
repo="$tmp/repo"
mkdir -p "$repo" && git init -q -b main "$repo" || exit 2
kernel scale >"$repo/k.cu"
kernel clash >"$repo/c.cu"
kernel gone >"$repo/gone.cu"
kernel plain >"$repo/plain.cu"
kernel back >"$repo/back.cu"
printf 'one\ntwo\nthree\nfour\nfive\n' >"$repo/notes.txt"
printf 'mode = a\n' >"$repo/conf.txt"
printf 'old\n' >"$repo/old.txt"
g add . && g commit -qm v1 && g tag v1 || exit 2
g checkout -qb port
check "apply" 0 hp apply k.cu c.cu gone.cu back.cu --target-hip=6.4
check "commit the port" 0 hp commit --force -m "Port to HIP" --target-hip=6.4
expect "Ported-from trailer" "$tmp/out" "Port to HIP"
truth "the commit says where it was ported from" sh -c "git -C '$repo' log -1 --format=%B | grep -qx \"Ported-from: \$(git -C '$repo' rev-parse v1)\""
sed -i 's/int n = 256;/int n = 512; \/\/ two wavefronts per block/; s/hipDeviceSynchronize();/(void)hipDeviceSynchronize();/' "$repo/k.cu"
sed -i 's/hipMalloc(&x, n \* sizeof(float));/hipMallocManaged(\&x, n * sizeof(float));/' "$repo/c.cu"
sed -i 's/^two$/TWO (port)/' "$repo/notes.txt"
printf 'mode = port\n' >"$repo/conf.txt"
g checkout -q v1 -- back.cu # every hunk of its port rejected by hand
g commit -qam "tune for gfx942" || exit 2

# upstream v2
g checkout -q main
sed -i 's/x\[i\] \*= 2.0f;/x[i] *= 3.0f;/; s/printf("done\\n");/printf("done %d\\n", n);/' "$repo/k.cu"
sed -i 's/cudaMalloc(&x, n \* sizeof(float));/cudaMalloc(\&x, 2 * n * sizeof(float));/' "$repo/c.cu"
sed -i 's/x\[i\] \*= 2.0f;/x[i] += 1.0f;/' "$repo/plain.cu"
sed -i 's/x\[i\] \*= 2.0f;/x[i] *= 5.0f;/' "$repo/back.cu"
sed -i 's/^five$/FIVE (upstream)/' "$repo/notes.txt"
printf 'mode = b\n' >"$repo/conf.txt"
kernel fresh >"$repo/new.cu"
printf 'package tool\n' >"$repo/tool.go" # a new file that is no CUDA
g rm -q gone.cu old.txt
g add . && g commit -qm v2 && g tag v2 || exit 2
g checkout -q port
cp -a "$repo" "$tmp/before" # the kill test starts here

# refusals first: nothing is written by any of them
check "sync without --to" 2 hp sync
expect "sync asks for --to" "$tmp/err" "--to NEW"
check "sync to where it is" 2 hp sync --to v1
check "sync to nothing" 2 hp sync --to no-such-tag
expect "sync names the commit" "$tmp/err" "no-such-tag: no such commit"
printf 'mine\n' >>"$repo/plain.cu"
check "sync over a changed file" 2 hp sync --to v2
expect "sync names the changed file" "$tmp/err" "differ from the port's commit"
expect "sync names the changed file" "$tmp/err" ": plain.cu; commit or stash them first"
truth "nothing written" test ! -e "$repo/.git/hipport/sync.json" -a ! -e "$repo/new.cu"
g checkout -q plain.cu

check "sync" 0 hp sync --to v2 --target-hip=6.4
expect "merged k.cu" "$tmp/out" "merged    k.cu: 4 carried, 0 proposed, 0 merged clean, 0 conflicts, 2 edits kept"
expect "conflict c.cu" "$tmp/out" "merged    c.cu: 2 carried, 0 proposed, 0 merged clean, 1 conflict, 1 edit kept"
expect "taken plain.cu" "$tmp/out" "updated   plain.cu (the port left it alone)"
# a reviewed file whose port is upstream's own text: its rejections carried
expect "merged back.cu" "$tmp/out" "merged    back.cu:"
expect "added new.cu" "$tmp/out" "added     new.cu (proposed fresh in the review)"
expect "deleted old.txt" "$tmp/out" "deleted   old.txt"
expect "removed gone.cu" "$tmp/out" "removed upstream, ported here: gone.cu"
expect "by hand conf.txt" "$tmp/out" "by hand   conf.txt"
expect "merged notes.txt" "$tmp/out" "merged    notes.txt (not a file the review takes: merged clean)"
# hand edits byte for byte, upstream's changes in
truth "edit kept (outside hunks)" grep -qxF '	int n = 512; // two wavefronts per block' "$repo/k.cu"
truth "edit kept (in a hunk)" grep -qxF '	(void)hipDeviceSynchronize();' "$repo/k.cu"
truth "upstream's line in" grep -qxF '		x[i] *= 3.0f;' "$repo/k.cu"
truth "decisions carried" grep -qxF '#include <hip/hip_runtime.h>' "$repo/k.cu"
truth "conflict keeps the port's line" grep -qF 'hipMallocManaged(&x, n * sizeof(float));' "$repo/c.cu"
truth "plain file merged" sh -c "grep -qx 'TWO (port)' '$repo/notes.txt' && grep -qx 'FIVE (upstream)' '$repo/notes.txt'"
truth "by hand: left as the port has it" grep -qx 'mode = port' "$repo/conf.txt"
truth "taken as upstream has it" grep -qF 'x[i] += 1.0f;' "$repo/plain.cu"
truth "rejections carried: upstream's CUDA, its change in" sh -c "grep -qF 'x[i] *= 5.0f;' '$repo/back.cu' && grep -qF 'cudaMalloc(&x' '$repo/back.cu'"
truth "deleted" test ! -e "$repo/old.txt"
truth "removal waits" test -e "$repo/gone.cu"

check "status after the sync" 0 hp status --target-hip=6.4
expect "status: the conflict" "$tmp/out" "c.cu: partial, 3 hunks (2 accepted, 0 rejected, 0 edited, 0 pending); 0 errors, 0 warnings, 0 notes; 1 conflict to resolve (0 merged clean, to confirm)"
expect "status: the sync" "$tmp/out" "10 files changed upstream"
expect "status: the rejections carried" "$tmp/out" "back.cu: accepted, 3 hunks (0 accepted, 3 rejected, 0 edited, 0 pending)"
expect "status: removal left" "$tmp/out" "gone.cu: removed upstream, ported here (hipport sync remove|keep)"

check "commit refused" 1 hp commit --force --target-hip=6.4
expect "commit says why" "$tmp/err" "c.cu: a conflict to resolve in the review"
expect "commit: removal" "$tmp/err" "gone.cu: removed upstream"
# neither a new file no walk takes nor a file whose port is upstream's own
# text (every hunk rejected) holds the commit up
truth "commit: tool.go taken" sh -c "! grep -q 'tool.go' '$tmp/err'"
truth "commit: back.cu taken" sh -c "! grep -q 'back.cu' '$tmp/err'"
check "sync remove: not a removal" 2 hp sync remove k.cu
check "sync remove" 0 hp sync remove gone.cu
truth "removed" test ! -e "$repo/gone.cu"
check "sync keep" 0 hp sync keep conf.txt
check "sync again: resumes, nothing left" 0 hp sync --target-hip=6.4
expect "resumed" "$tmp/out" "resuming the sync"
check "another sync while one is under way" 2 hp sync --to v1

# the session: the conflict, with the port's lines and the base
truth "session holds the conflict" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
hunks = s["files"]["c.cu"]["hunks"]
c = [h for h in hunks if h["decision"] == "conflict"]
assert len(c) == 1, hunks
assert "hipMallocManaged(&x, n * sizeof(float));" in c[0]["text"], c
assert "hipMalloc(&x, n * sizeof(float));" in c[0]["base"], c
k = s["files"]["k.cu"]
assert any(h["decision"] == "edited" for h in k["hunks"]), k
assert k.get("regions"), k
' "$repo/.git/hipport/session.json"

# kill -9 at any moment: run again, the same result as a sync never interrupted
kill_at() { # kill_at SECONDS: a copy of the repository before the sync, synced with a kill -9 after SECONDS
	rm -rf "$tmp/killed" && cp -a "$tmp/before" "$tmp/killed"
	"$hipport" -C "$tmp/killed" sync --to v2 --target-hip=6.4 >/dev/null 2>&1 &
	pid=$!
	sleep "$1"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	"$hipport" -C "$tmp/killed" sync --to v2 --target-hip=6.4 >"$tmp/resumed" 2>&1
}
rm -rf "$tmp/whole" && cp -a "$tmp/before" "$tmp/whole"
"$hipport" -C "$tmp/whole" sync --to v2 --target-hip=6.4 >/dev/null 2>&1
for t in 0 0.02 0.05 0.1 0.2 0.4 0.7 1.0; do
	kill_at "$t"
	truth "kill -9 after ${t}s: resumed" grep -q "^sync " "$tmp/resumed"
	truth "kill -9 after ${t}s: the same files" diff -r -x .git "$tmp/whole" "$tmp/killed"
	truth "kill -9 after ${t}s: the same session" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["files"] == b["files"], "sessions differ"
' "$tmp/whole/.git/hipport/session.json" "$tmp/killed/.git/hipport/session.json"
done

# no trailer, no --from: said
rm -rf "$tmp/bare" && mkdir -p "$tmp/bare" && git init -q -b main "$tmp/bare" && kernel k >"$tmp/bare/k.cu" &&
	git -C "$tmp/bare" add . && git -C "$tmp/bare" commit -qm one && git -C "$tmp/bare" tag one
check "no Ported-from" 2 "$hipport" -C "$tmp/bare" sync --to one
expect "no Ported-from said" "$tmp/err" "give --from OLD"

finish
