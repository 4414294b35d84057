#!/bin/sh
# The mouse in a real terminal: the review of the example project in tmux at
# 120x30, sent the bytes xterm sends in its SGR mouse mode (1006). Exit 77
# (skipped) without tmux.
#  1. the review turns the terminal's mouse reports on (tmux sees SGR mode);
#  2. a click on a file selects it, a second click opens it (a then accepts
#     its first hunk); the wheel over the diff scrolls both sides three
#     lines; a click on a hunk's row puts the cursor there; the wheel over
#     the file list moves the selection;
#  3. with --no-mouse the terminal keeps the mouse: no mode set, a click
#     moves nothing.
# usage: e2e-tmux-mouse.sh HIPPORT SOURCE_DIR TMP_DIR
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
truth "mouse reports on, SGR" test "$(mouse_mode)" = "1 1"
click 4 5
truth "a click selects ops.h" wait_for ">  include/fastops/ops.h"
truth "its diff shown" wait_for "#include <cuda_runtime_api.h>"
click 4 5
keys a
truth "a second click opens it: a accepted its first hunk" wait_for "A   7 #include <hip/hip_runtime.h>"
wheel_down 10 60
truth "the wheel scrolls the diff" wait_for "hipStream_t stream)"
truth "both sides from line 4" sh -c "sed -n 3p '$tmp/pane' | grep -q '|    4 // contiguous.*|    4 // contiguous'"
click 17 100
truth "a click on a hunk's row moves the cursor there" wait_for "include/fastops/ops.h  hunk 3/9"
wheel_down 20 10
truth "the wheel over the list moves the selection" wait_for ">  src/main.cu"
keys q
wait_gone

start --no-mouse
truth "review started without the mouse" wait_for "original (CMake, CUDA)"
truth "no mouse reports" test "$(mouse_mode)" = "0 0"
click 4 5
keys j
truth "a click moves nothing: j goes to the second file" wait_for ">  include/fastops/comm"
truth "ops.h not selected" sh -c "! grep -q '^>  include/fastops/ops.h' '$tmp/pane'"
keys q
wait_gone
tmux -S "$sock" kill-server 2>/dev/null
finish
