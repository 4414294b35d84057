#!/bin/sh
# The review's newer keys in a real terminal: the example project in tmux at
# 120x30, each step checked on what the pane shows. Exit 77 (skipped)
# without tmux.
#  1. s splits ops.h's second hunk into a hunk per line; a and r decide the
#     two lines; m marks ops.h reviewed (*);
#  2. N goes to the next file with undecided hunks (gemm_host.cu);
#  3. B asks to accept the rename-only hunks of every file, y accepts them;
#  4. F searches every file: the matches of hipMalloc as file:line, Enter
#     opens gemm_host.cu at the first;
#  5. the mouse: a click on ops.h in the list selects it, a second click
#     opens it, a click on a line of the split hunk puts the cursor there;
#  6. after q, hipport status holds what the pane showed.
# usage: e2e-tmux-walk.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
command -v tmux >/dev/null 2>&1 || { echo "skipped: tmux is not installed"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/tui/tmux-lib.sh"
example_repo

start
truth "review started" wait_for "original (CMake, CUDA)"
keys j j Enter n s
truth "s split the hunk" wait_for "hunk 2 split into 2: a, r and e decide each line"
keys a r
truth "the first line accepted" wait_for "|A  10 #include <cuda_runtime_api.h>         |A  11 #include <hip/hip_runtime_api.h>"
truth "the second line rejected" wait_for "|R  11 #include <cuda_fp16.h>                |R  12 #include <hip/hip_fp16.h>"
keys m
truth "m marked ops.h reviewed" wait_for "include/fastops/ops.h marked reviewed"
truth "the list shows the mark" grep -q "^>~\\*include/fastops/ops.h" "$tmp/pane"
keys N
truth "N opened the next file left to review" wait_for "src/gemm_host.cu  hunk 1/13"
truth "the list selects it" grep -q "^>  src/gemm_host.cu" "$tmp/pane"
keys B
truth "B asks" wait_for "rename-only hunks in 8 files? y/n"
keys y
truth "y accepted them" wait_for "rename-only hunks in 8 files (u undoes one)"
truth "gemm_host.cu's renames accepted" grep -q "^>~ src/gemm_host.cu" "$tmp/pane"
keys F
type_text hipMalloc
keys Enter
truth "F lists the matches in every file" wait_for "matches of \"hipMalloc\": Enter opens, Escape closes"
truth "as file:line" grep -q "^src/gemm_host.cu:38 hip .*hipMalloc(&dA" "$tmp/pane"
truth "in another file too" grep -q "^src/main.cu:[0-9]* hip .*hipMalloc" "$tmp/pane"
keys Enter
truth "Enter opens the match's file" wait_for "src/gemm_host.cu  hunk"
truth "the diff at the match's line (its hunk holds a renamed message too: not rename-only, left undecided by B)" grep -q "|?  38   hipError_t err = hipMalloc(&dA" "$tmp/pane"
click 4 5
truth "a click selects ops.h" wait_for ">~*include/fastops/ops.h"
click 4 5
truth "a second click opens it" wait_for "include/fastops/ops.h  hunk 1/"
click 14 100
truth "a click on the split hunk's second line" wait_for "include/fastops/ops.h  hunk 3/10"
keys q
wait_gone
check "status after the walk" 0 "$hipport" -C "$repo" status --format json --target-hip=5.2
truth "the session holds the walk" python3 -c '
import json, sys
files = {f["path"]: f for f in json.load(open(sys.argv[1]))["files"]}
ops = files["include/fastops/ops.h"]
assert ops["hunks"]["total"] == 10 and ops["hunks"]["rejected"] == 1, ops
assert ops.get("reviewed"), ops
assert files["src/gemm_host.cu"]["hunks"]["accepted"] > 0, files["src/gemm_host.cu"]
' "$tmp/out"
tmux -S "$sock" kill-server 2>/dev/null
finish
