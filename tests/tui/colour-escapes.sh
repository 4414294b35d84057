#!/bin/sh
# Colour as the terminal receives it: the review of the example's
# src/gemm_host.cu runs under tmux, and tmux capture-pane -e gives back the
# escape codes of every cell. With TERM=screen (8 colours) and a 256-colour
# TERM, these must be coloured: a keyword (syntax colour) on both sides, the
# changed token of a hunk on the CUDA side and on the HIP side (in two
# different background colours), and the title. With NO_COLOR=1, and with
# --no-color, there must be no colour at all, but bold and reverse.
# Exit 77 (skipped) without tmux.
# usage: colour-escapes.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
command -v tmux >/dev/null 2>&1 || { echo "skipped: tmux is not installed"; exit 77; }
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
repo="$tmp/repo"
sock="$tmp/tmux.sock"
cp -r "$src/share/examples/fastops" "$repo" || exit 2
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -q -m example) || exit 2

# capture NAME ENV [ARG...]: the screen of hipport review ARG... src/gemm_host.cu
# with ENV (a TERM=... and more) in $tmp/NAME.ansi, once drawn to its last row
capture() {
	shot=$1
	env=$2
	shift 2
	tmux -S "$sock" -f /dev/null new-session -d -s colour -x 160 -y 40 \
		"cd '$repo' && env $env '$hipport' review --target-hip=5.2 $* src/gemm_host.cu; sleep 30"
	n=0
	while [ $n -lt 100 ]; do
		# drawn, and every proposal made (no "proposals N/M" line under the file list)
		tmux -S "$sock" capture-pane -p -t colour >"$tmp/pane" 2>/dev/null && grep -q "q quit" "$tmp/pane" &&
			! grep -qE "^ proposals [0-9]+/[0-9]+" "$tmp/pane" && break
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.2
	tmux -S "$sock" capture-pane -e -p -t colour >"$tmp/$shot.ansi"
	tmux -S "$sock" kill-server 2>/dev/null
	grep -q "q quit" "$tmp/$shot.ansi"
}

# cells NAME MODE: the cells of $tmp/NAME.ansi as the escape codes left them,
# checked for MODE: 8 or 256 colours, or mono (no colour)
cells() {
	python3 - "$tmp/$1.ansi" "$2" <<'PY'
import re, sys

path, mode = sys.argv[1], sys.argv[2]
raw = open(path, encoding="utf-8", errors="replace").read()
state = {}
rows = []  # per row: [(char, state)]

def sgr(params):
    p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
    i = 0
    while i < len(p):
        c = p[i]
        if c == 0: state.clear()
        elif c in (1, 2, 7): state[{1: "bold", 2: "dim", 7: "reverse"}[c]] = True
        elif c == 22: state.pop("bold", None); state.pop("dim", None)
        elif c == 27: state.pop("reverse", None)
        elif 30 <= c <= 37 or 90 <= c <= 97: state["fg"] = ("8", c % 10 + (8 if c >= 90 else 0))
        elif 40 <= c <= 47 or 100 <= c <= 107: state["bg"] = ("8", c % 10 + (8 if c >= 100 else 0))
        elif c == 39: state.pop("fg", None)
        elif c == 49: state.pop("bg", None)
        elif c in (38, 48):
            key = "fg" if c == 38 else "bg"
            if p[i + 1] == 5:
                state[key] = ("256", p[i + 2]); i += 2
            else:
                state[key] = ("rgb", tuple(p[i + 2:i + 5])); i += 4
        i += 1

for line in raw.split("\n"):
    row = []
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b]+)|\x1b", line):
        if m.group(1) is not None:
            sgr(m.group(1))
        elif m.group(2):
            row.extend((ch, dict(state)) for ch in m.group(2))
    rows.append(row)
text = ["".join(ch for ch, _ in row) for row in rows]
failed = []

def at(word, nth=0):
    """The state of the first cell of the nth occurrence of word on screen."""
    for y, t in enumerate(text):
        x = -1
        for _ in range(nth + 1):
            x = t.find(word, x + 1)
            if x < 0:
                break
        if x >= 0:
            return rows[y][x][1]
    failed.append("'%s' (%d) is not on the screen" % (word, nth))
    return {}

def need(what, ok):
    if not ok:
        failed.append(what)

title = at("hipport review")
keyword_cuda, keyword_hip = at("namespace fastops", 0), at("namespace fastops", 1)
ident = at("fastops {")
changed_cuda, changed_hip = at("cublas_v2"), at("hip/hip_runtime")
if mode == "mono":
    need("no colour code in the escapes", not re.search(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m", raw))
    need("no coloured cell", not any("fg" in s or "bg" in s for row in rows for _, s in row))
    need("title reverse", title.get("reverse"))
    need("keyword bold", keyword_cuda.get("bold") and keyword_hip.get("bold"))
    need("changed token reverse (CUDA side)", changed_cuda.get("reverse"))
    need("changed token reverse (HIP side)", changed_hip.get("reverse"))
else:
    kind = "8" if mode == "8" else "256"
    def coloured(s, key):
        return s.get(key, ("", 0))[0] == kind
    need("title in colour: %s" % title, coloured(title, "bg"))
    need("keyword in colour (CUDA side): %s" % keyword_cuda, coloured(keyword_cuda, "fg"))
    need("keyword in colour (HIP side): %s" % keyword_hip, coloured(keyword_hip, "fg"))
    need("keyword unlike an identifier: %s" % ident, keyword_cuda.get("fg") != ident.get("fg"))
    need("changed token on a colour (CUDA side): %s" % changed_cuda, coloured(changed_cuda, "bg"))
    need("changed token on a colour (HIP side): %s" % changed_hip, coloured(changed_hip, "bg"))
    need("changed tokens on two colours", changed_cuda.get("bg") != changed_hip.get("bg"))
for f in failed:
    print("  " + f)
sys.exit(1 if failed else 0)
PY
}

if [ "$(tput -T screen colors 2>/dev/null)" = 8 ]; then
	truth "review drawn with TERM=screen" capture screen "TERM=screen"
	truth "8 colours reach the terminal (TERM=screen)" cells screen 8
else
	echo "no terminfo for screen: the 8 colours are not tested"
fi
wide=
for term in screen-256color tmux-256color; do
	[ "$(tput -T $term colors 2>/dev/null)" = 256 ] && wide=$term && break
done
if [ -n "$wide" ]; then
	truth "review drawn with TERM=$wide" capture wide "TERM=$wide"
	truth "256 colours reach the terminal (TERM=$wide)" cells wide 256
fi
term=${wide:-screen}
truth "review drawn with NO_COLOR=1" capture no_color "TERM=$term NO_COLOR=1"
truth "NO_COLOR=1: bold and reverse, no colour" cells no_color mono
truth "review drawn with --no-color" capture no_color_option "TERM=$term" --no-color
truth "--no-color: bold and reverse, no colour" cells no_color_option mono
tmux -S "$sock" kill-server 2>/dev/null
finish
