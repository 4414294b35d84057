#!/bin/sh
# A sync walked in a real terminal (tmux, 200x50): a port of a.cu made at
# upstream v1 with a hand edit committed on its branch; upstream v2 changes
# the same line and another. In the terminal, all from the review: S asks
# for the upstream commit, v2 Enter syncs (the summary in the status bar,
# nothing printed over the screen), and the review, made again, shows the
# conflict; Enter opens a.cu at it (C), t shows the new proposal, o keeps the
# port's line, b builds the file for gfx90a (or HIPPORT_TEST_ARCH), c y
# commits the sync: one merge commit, v2 its second parent, Synced-from:
# v1..v2, the hand edit and upstream's other change in it. Exit 77
# (skipped) without tmux or hipcc.
# usage: e2e-tmux-sync.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
command -v tmux >/dev/null 2>&1 || { echo "skipped: tmux is not installed"; exit 77; }
command -v hipcc >/dev/null 2>&1 || { echo "skipped: no hipcc to build the port"; exit 77; }
arch=${HIPPORT_TEST_ARCH:-gfx90a}
hip=${HIPPORT_TEST_HIP:-5.2}
rm -rf "$tmp" && mkdir -p "$tmp/repo" || exit 2
. "$src/tests/cli/lib.sh"
repo="$tmp/repo"
sock="$tmp/tmux.sock"
g() { git -C "$repo" "$@"; }
cat >"$repo/a.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }
int main() {
  float *p;
  cudaMalloc(&p, 256 * sizeof(float));
  fill<<<1, 256>>>(p, 1.0f);
  cudaDeviceSynchronize();
  cudaFree(p);
  return 0;
}
CU
g init -q . && g config user.name "Review Test" && g config user.email review@example.com || exit 2
g add -A && g commit -qm v1 && g tag v1 && g checkout -qb port || exit 2
"$hipport" -C "$repo" apply --target-hip=$hip a.cu >/dev/null 2>&1 || exit 2
"$hipport" -C "$repo" commit --force -m "Port a.cu" --target-hip=$hip >/dev/null 2>&1 || exit 2
sed -i 's/hipDeviceSynchronize();/(void)hipDeviceSynchronize(); \/\/ errors come back from the next call/' "$repo/a.cu"
g commit -qam "hand edit" || exit 2
g checkout -qb upstream v1 || exit 2
sed -i 's/cudaDeviceSynchronize();/cudaStreamSynchronize(0);/; s/p\[threadIdx.x\] = v;/p[threadIdx.x] = 2 * v;/' "$repo/a.cu"
g commit -qam v2 && g tag v2 && g checkout -q port || exit 2
port_head=$(g rev-parse HEAD)

. "$src/tests/tui/tmux-lib.sh"
tmux -S "$sock" new-session -d -s review -x 200 -y 50 \
	"cd '$repo' && TERM=xterm-256color '$hipport' review --target-hip=$hip --offload-arch=$arch a.cu; sleep 1"
truth "the review is up" wait_for "original (CUDA)"
keys S
truth "S asks for the upstream commit" wait_for "sync to upstream commit: _"
type_text v2
keys Enter
truth "the sync's summary in the status bar" wait_for "1 merged into the review: 1 conflict"
truth "nothing printed over the screen" sh -c "! grep -q '^merged  ' '$tmp/pane'"
truth "the sync is under way" test -e "$repo/.git/hipport/sync.json"
truth "conflict marked" wait_for "|C "
keys Enter t
truth "t shows the new proposal" wait_for "shows the new proposal"
truth "the new proposal on the right" grep -q "hipStreamSynchronize(0);" "$tmp/pane"
keys o
truth "resolved" wait_for "resolved: the port's lines kept"
truth "the port's line kept" grep -qF "(void)hipDeviceSynchronize(); // errors" "$tmp/pane"
keys b
truth "a.cu built" sh -c "n=0; while [ \$n -lt 600 ]; do tmux -S '$sock' capture-pane -p -t review | grep -q 'compile check pass' && exit 0; sleep 0.1; n=\$((n + 1)); done; exit 1"
keys Escape c
truth "commit dialog: the sync" wait_for "Sync the port with upstream"
keys y
truth "committed" wait_for "(1 file)"
keys q
wait_gone
tmux -S "$sock" kill-server 2>/dev/null
truth "a merge commit: the port, then v2" test "$(g rev-parse HEAD^1) $(g rev-parse HEAD^2)" = "$port_head $(g rev-parse v2)"
truth "Synced-from trailer" sh -c "git -C '$repo' log -1 --format=%B | grep -qx \"Synced-from: \$(git -C '$repo' rev-parse v1)..\$(git -C '$repo' rev-parse v2)\""
truth "Ported-from: v2" sh -c "git -C '$repo' log -1 --format=%B | grep -qx \"Ported-from: \$(git -C '$repo' rev-parse v2)\""
truth "validated" sh -c "git -C '$repo' log -1 --format=%B | grep -q '^Validated-on: $arch\$'"
truth "hand edit committed" sh -c "git -C '$repo' show HEAD:a.cu | grep -qF '(void)hipDeviceSynchronize(); // errors come back from the next call'"
truth "upstream's other change committed" sh -c "git -C '$repo' show HEAD:a.cu | grep -qF 'p[threadIdx.x] = 2 * v;'"
truth "the sync is over" test ! -e "$repo/.git/hipport/sync.json"
check "status: nothing left" 0 "$hipport" -C "$repo" status --format json --target-hip=$hip
truth "status: committed, no sync" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert "sync" not in doc, doc
f = [f for f in doc["files"] if f["path"] == "a.cu"][0]
assert f["state"] == "committed", f
' "$tmp/out"
finish
