#!/bin/sh
# The review in a real terminal: tmux at 200x50 on a repository with two CUDA
# files. Exit 77 (skipped) without tmux.
#  1. the first file's diff shows cudaMalloc left and hipMalloc right on one
#     row; Enter A q leaves the file equal to hipport translate of it;
#  2. started again, j Enter a accepts the first hunk of the second file; after
#     kill -9, hipport status shows that hunk accepted and the first file accepted;
#  3. (with hipcc) the kernel check of the first file imported as a GPU
#     machine's run brings it, passing with the port at 0.5x of the
#     reference; started again: b builds the first file for gfx90a (or
#     HIPPORT_TEST_ARCH, at HIPPORT_TEST_HIP: tests/lane-gfx942.sh) and shows
#     its kernel's registers and waves per SIMD, K its check with the times
#     and "slow", c and y commit it alone, validated, with a Perf: line; the
#     second file, accepted but not built, is refused by c y, HEAD unchanged.
# usage: e2e-tmux.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
command -v tmux >/dev/null 2>&1 || { echo "skipped: tmux is not installed"; exit 77; }
arch=${HIPPORT_TEST_ARCH:-gfx90a}
hip=${HIPPORT_TEST_HIP:-5.2}
rm -rf "$tmp" && mkdir -p "$tmp/repo" || exit 2
. "$src/tests/cli/lib.sh"
repo="$tmp/repo"
sock="$tmp/tmux.sock"
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
cat >"$repo/b.cu" <<'CU'
#include <cuda_runtime.h>
void copy(float *dst, const float *src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
}
void wait(cudaStream_t s) { cudaStreamSynchronize(s); }
CU
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m cuda) || exit 2
cp "$repo/a.cu" "$tmp/a.orig.cu"
"$hipport" translate --target-hip=$hip "$tmp/a.orig.cu" >"$tmp/a.port.cu" 2>/dev/null || exit 2

. "$src/tests/tui/tmux-lib.sh"

start
truth "review started" wait_for "original (CUDA)"
# the proposal on screen before the keys (on a busy machine it comes a moment after the panes)
truth "proposal shown" wait_for "hipMalloc(&p"
truth "cudaMalloc and hipMalloc on one row" grep -q "cudaMalloc(&p.*hipMalloc(&p" "$tmp/pane"
keys Enter A
truth "accepted" wait_for "accepted"
keys q
wait_gone
truth "a.cu is its translation" cmp "$repo/a.cu" "$tmp/a.port.cu"

start
truth "review started again" wait_for "original (CUDA)"
keys j Enter a
truth "hunk decided" wait_for "hunk 2/"
pid=$(pgrep -f "$hipport review --target-hip=$hip" | head -1)
truth "hipport running" test -n "$pid"
kill -9 "$pid" 2>/dev/null
tmux -S "$sock" kill-server 2>/dev/null
check "status after kill -9" 0 "$hipport" -C "$repo" status --format json --target-hip=$hip
truth "session survived kill -9" python3 -c '
import json, sys
files = {f["path"]: f for f in json.load(open(sys.argv[1]))["files"]}
a, b = files["a.cu"], files["b.cu"]
assert a["state"] == "accepted" and a["hunks"]["pending"] == 0, a
assert b["hunks"]["accepted"] == 1, b
' "$tmp/out"
truth "b.cu holds its first hunk" grep -q "hip/hip_runtime.h" "$repo/b.cu"

if command -v hipcc >/dev/null 2>&1; then
	git -C "$repo" config user.name "Review Test" && git -C "$repo" config user.email review@example.com
	first=$(git -C "$repo" rev-parse HEAD)
	check "spec drafted" 0 "$hipport" -C "$repo" check draft a.cu
	side='"runs": 25, "device": "NVIDIA H200"'
	cat >"$tmp/results.json" <<JSON
{"schema": "hipport-check-results", "version": 1, "checks": [{"name": "a.fill", "source": "a.cu", "status": "pass",
 "platform": "nvidia-proxy", "arch": "sm_90", "message": "", "port_blob": "$(git -C "$repo" hash-object a.cu)",
 "time": {"reference": {"median_us": 4.0, "q1_us": 3.9, "q3_us": 4.1, $side},
          "port": {"median_us": 8.0, "q1_us": 7.9, "q3_us": 8.1, $side}, "bytes": 1024}}]}
JSON
	check "results imported" 0 sh -c "cd '$repo' && '$hipport' check import '$tmp/results.json'"
	start --offload-arch=$arch a.cu
	truth "review of a.cu started" wait_for "original (CUDA)"
	keys b
	truth "a.cu built" sh -c "n=0; while [ \$n -lt 600 ]; do tmux -S '$sock' capture-pane -p -t review | grep -q 'compile check pass' && exit 0; sleep 0.1; n=\$((n + 1)); done; exit 1"
	truth "its kernel's resources" wait_for "resources for $arch"
	truth "fill's registers and waves" grep -qE "^ +fill +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+" "$tmp/pane"
	keys Escape K
	truth "its check, timed" wait_for "a.fill"
	truth "0.50x of the reference, slow" grep -qE "a\.fill +pass +nvidia-proxy sm_90 +0\.50x .*slow" "$tmp/pane"
	keys Escape c
	truth "commit dialog" wait_for "validated: compile for $arch pass"
	keys y
	truth "committed" wait_for "Port 1 file to HIP (1 file)"
	keys q
	wait_gone
	truth "one new commit" test "$(git -C "$repo" rev-parse HEAD~1)" = "$first"
	truth "only a.cu in it" test "$(git -C "$repo" diff --name-only HEAD~1 HEAD)" = "a.cu"
	truth "validated on $arch" sh -c "git -C '$repo' log -1 --format=%B | grep -q '^Validated-on: $arch\$'"
	truth "a Perf: line for fill" sh -c "git -C '$repo' log -1 --format=%B | grep -q '^Perf: a.fill (a.cu) 0.50x (0.48-0.52) of the reference'"
	second=$(git -C "$repo" rev-parse HEAD)
	start --offload-arch=$arch b.cu
	truth "review of b.cu started" wait_for "original (CUDA)"
	keys Enter A
	truth "b.cu accepted" wait_for "accepted"
	keys c
	truth "b.cu not validated" wait_for "NOT validated: no compile check"
	keys y
	truth "commit refused" wait_for "nothing committed"
	keys q
	wait_gone
	truth "HEAD unchanged" test "$(git -C "$repo" rev-parse HEAD)" = "$second"
else
	echo "no hipcc: the build and commit part is skipped"
fi
tmux -S "$sock" kill-server 2>/dev/null
finish
