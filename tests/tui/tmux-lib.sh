# Helpers of the tmux tests, sourced after tests/cli/lib.sh with hipport,
# src and tmp set: hipport review of $repo in the tmux session "review" (on
# the socket $sock), keys and mouse events sent to it, and what its pane
# shows.
repo=${repo:-$tmp/repo}
sock=${sock:-$tmp/tmux.sock}

# example_repo: the example project (share/examples/fastops) committed in
# $repo, reviewed at 120x30, as tests/tui/run.sh makes it for scripts
example_repo() {
	width=120
	height=30
	cp -r "$src/share/examples/fastops" "$repo" || exit 2
	(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m example) || exit 2
}

# wait_for TEXT: until the pane shows TEXT and every proposal is made (no
# "proposals N/M" line under the file list while they come in the
# background), 10 s at most; the pane is left in $tmp/pane
wait_for() {
	n=0
	while [ $n -lt 100 ]; do
		tmux -S "$sock" capture-pane -p -t review >"$tmp/pane" 2>/dev/null && grep -qF -- "$1" "$tmp/pane" &&
			! grep -qE "^ proposals [0-9]+/[0-9]+" "$tmp/pane" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# wait_gone: until the session has ended (10 s at most)
wait_gone() {
	n=0
	while [ $n -lt 100 ] && tmux -S "$sock" has-session -t review 2>/dev/null; do
		sleep 0.1
		n=$((n + 1))
	done
}

# start [ARG...]: hipport review ARG... in a new tmux session, $width x
# $height (200x50 unless set)
start() {
	tmux -S "$sock" new-session -d -s review -x "${width:-200}" -y "${height:-50}" \
		"cd '$repo' && TERM=xterm-256color '$hipport' review --target-hip=${HIPPORT_TEST_HIP:-5.2} $*; sleep 1"
}
# keys KEY...: sent one at a time
keys() {
	for key in "$@"; do
		tmux -S "$sock" send-keys -t review "$key"
	done
}
# type TEXT: the characters of TEXT, as typed
type_text() {
	tmux -S "$sock" send-keys -t review -l "$1"
}

# click ROW COL, wheel_down ROW COL, wheel_up ROW COL: the bytes xterm sends
# in its SGR mouse mode (1006), ESC [ < button ; column ; row, then M for a
# press, m for a release (1-based): a click is a press and a release of the
# first button, the wheel a press of button 64 (up) or 65 (down)
mouse() {
	tmux -S "$sock" send-keys -t review -l "$(printf '\033[<%d;%d;%d%s' "$1" "$3" "$2" "$4")"
}
click() {
	mouse 0 "$1" "$2" M
	mouse 0 "$1" "$2" m
}
wheel_up() { mouse 64 "$1" "$2" M; }
wheel_down() { mouse 65 "$1" "$2" M; }
# mouse_mode: what the review asked the terminal for, as tmux saw it: "sgr
# standard" flags, 1 each when on
mouse_mode() {
	tmux -S "$sock" display-message -p -t review '#{mouse_sgr_flag} #{mouse_standard_flag}'
}
# row N: line N of the pane (1-based), as last captured
row() {
	sed -n "${1}p" "$tmp/pane"
}
