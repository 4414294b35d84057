#!/bin/sh
# hipport check --slurm and --submit against a real Slurm: a one-node cluster
# started here (tests/slurm/cluster.sh: its own slurm.conf, munged, state in
# TMP_DIR, localhost only, stopped by a trap). A bundle of the example's
# checks goes through the whole path: the arrays and their dependency, one
# fragment per task, an interrupted --submit picked up again by job id, a
# cancelled array task reported as an error with the scheduler's word, a
# re-submission of that task only (through a login host), the merge, the
# import and hipport status, and the same walk in a terminal under tmux.
# Without a GPU here every check ends no-device. Exit 77 where slurmd cannot run.
# usage: test-slurm.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
tmp=$(cd "$tmp" && pwd)
case $hipport in /*) ;; *) hipport=$(pwd)/$hipport ;; esac
. "$src/tests/cli/lib.sh"
. "$src/tests/slurm/cluster.sh"

bg=
cleanup() {
	[ -n "$bg" ] && kill "$bg" 2>/dev/null
	[ -n "${sock:-}" ] && tmux -S "$sock" kill-server 2>/dev/null
	cluster_stop
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# wait_for SECONDS COMMAND...: polls COMMAND every 0.2 s; false at the limit
wait_for() {
	limit=$(($1 * 5))
	shift
	while [ "$limit" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		limit=$((limit - 1))
	done
	return 1
}

# --- bad input, before any cluster ------------------------------------------
repo=$tmp/repo
cp -r "$src/share/examples/fastops" "$repo" || exit 2
cat >"$repo/.hipport/config" <<'CONF'
[slurm]
	gpusPerTask = 0
	groupSize = 1
	pollSeconds = 1
	partition = debug
	extra = --oversubscribe
	setup = echo hipport-setup-ran
CONF
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm example) || exit 2
bundle=$tmp/bundle
checks="src/scaled_add.cu src/transpose.cu"

check "--submit of a missing bundle" 2 "$hipport" -C "$repo" check --submit "$tmp/nope"
expect "names the bundle" "$tmp/err" "$tmp/nope: no such bundle"
check "--slurm needs --bundle" 2 "$hipport" -C "$repo" check --slurm
cp "$repo/.hipport/config" "$tmp/config.good"
printf '[slurm]\n\tgroupSize = zero\n' >"$repo/.hipport/config"
# shellcheck disable=SC2086
check "a bad slurm.groupSize" 2 "$hipport" -C "$repo" check --bundle "$tmp/badbundle" --slurm $checks
expect "names the file and the key" "$tmp/err" ".hipport/config: slurm.groupSize must be a whole number"
truth "nothing written for a bad config" test ! -e "$tmp/badbundle"
printf '[slurm]\n\ttargets = gfx90a sm_90\n' >"$repo/.hipport/config"
# shellcheck disable=SC2086
check "a bad target" 2 "$hipport" -C "$repo" check --bundle "$tmp/badbundle" --slurm $checks
expect "names the target" "$tmp/err" "slurm.targets: 'sm_90' is not an offload arch"
cp "$tmp/config.good" "$repo/.hipport/config"

# shellcheck disable=SC2086
check "bundle with Slurm arrays" 0 "$hipport" -C "$repo" check --bundle "$bundle" --slurm $checks
expect "says how to submit" "$tmp/out" "submit with: hipport check --submit $bundle"
for f in plan ref.sbatch port-gfx90a.sbatch; do
	truth "slurm/$f written" test -f "$bundle/slurm/$f"
done
expect "an array task per check (groupSize 1)" "$bundle/slurm/port-gfx90a.sbatch" "#SBATCH --array=0-2"
expect "a time limit from the timeouts" "$bundle/slurm/ref.sbatch" "#SBATCH --time=9"
expect "the partition" "$bundle/slurm/ref.sbatch" "#SBATCH --partition=debug"
expect "extra #SBATCH lines" "$bundle/slurm/ref.sbatch" "#SBATCH --oversubscribe"
expect "setup lines" "$bundle/slurm/port-gfx90a.sbatch" "echo hipport-setup-ran"
expect "the port's arch" "$bundle/slurm/port-gfx90a.sbatch" "OFFLOAD_ARCH=gfx90a"
truth "no --gpus-per-task with gpusPerTask = 0" sh -c "! grep -q gpus-per-task '$bundle/slurm/ref.sbatch'"

check "a plain bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/plain" src/transpose.cu
check "--submit of a bundle without slurm/" 2 "$hipport" -C "$repo" check --submit "$tmp/plain"
expect "says what to do" "$tmp/err" "$tmp/plain/slurm/plan: cannot read it: write the bundle with hipport check --bundle"
check "--submit without sbatch" 2 env PATH=/nonexistent "$hipport" -C "$repo" check --submit "$bundle"
expect "says sbatch is missing" "$tmp/err" "sbatch not found"
truth "nothing submitted, nothing written" test ! -e "$bundle/slurm/jobs"

# --- the cluster ------------------------------------------------------------
cluster_start "$tmp/cluster"
rc=$?
if [ $rc = 77 ]; then
	exit 77
fi
[ $rc = 0 ] || { echo "FAIL the test cluster did not start"; exit 1; }

# the port's builds take a few seconds more, so that an array task is still
# there to cancel (the jobs inherit the environment, HIPCC included)
real_hipcc=$(command -v hipcc || echo /opt/rocm/bin/hipcc)
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nsleep 3\nexec %s "$@"\n' "$real_hipcc" >"$tmp/bin/hipcc" && chmod +x "$tmp/bin/hipcc"
HIPCC=$tmp/bin/hipcc
# and the reference's take three seconds before they fail (no nvcc here), so
# that the port array is still waiting on it when the test looks
printf '#!/bin/sh\nsleep 3\necho "nvcc: a stand-in, it builds nothing" >&2\nexit 1\n' >"$tmp/bin/nvcc" &&
	chmod +x "$tmp/bin/nvcc"
NVCC=$tmp/bin/nvcc
export HIPCC NVCC

jobs_file=$bundle/slurm/jobs
lines() { [ "$(cat "$jobs_file" 2>/dev/null | wc -l)" -ge "$1" ]; }

# 1. submit, and interrupt it once both arrays are in: exit 130, jobs run on
"$hipport" -C "$repo" check --submit "$bundle" >"$tmp/submit1.out" 2>"$tmp/submit1.err" &
bg=$!
truth "both arrays submitted" wait_for 30 lines 2
kill -INT "$bg"
wait "$bg"
rc=$?
bg=
truth "interrupted --submit exits 130 (got $rc)" test "$rc" = 130
expect "says the jobs run on" "$tmp/submit1.err" "the jobs run on"
expect "reference submitted" "$tmp/submit1.out" "submitted the reference: job"
expect "port after the reference" "$tmp/submit1.out" ", after job "
ref_job=$(sed -n 's/^ref \([0-9]*\) 0-2$/\1/p' "$jobs_file")
port_job=$(sed -n 's/^gfx90a \([0-9]*\) 0-2$/\1/p' "$jobs_file")
truth "slurm/jobs holds both arrays" test -n "$ref_job" -a -n "$port_job"
truth "the port array depends on the reference's" sh -c \
	"scontrol -o show job $port_job | grep -q 'Dependency=aftercorr:${ref_job}_\*'"

# 2. --submit again follows the same jobs; one port task is cancelled while
# it runs (a pending one cancelled leaves no record in a cluster without
# accounting storage, only an array without it)
"$hipport" -C "$repo" check --submit "$bundle" >"$tmp/submit2.out" 2>"$tmp/submit2.err" &
bg=$!
truth "port task 1 runs" wait_for 60 sh -c "squeue -h -r -j $port_job -t RUNNING -o %K | grep -qx 1"
scancel "${port_job}_1"
truth "the second --submit ends" wait_for 90 sh -c "! kill -0 $bg 2>/dev/null"
wait "$bg"
rc=$?
bg=
truth "--submit with a cancelled task exits 1 (got $rc)" test "$rc" = 1
truth "nothing submitted again" test "$(wc -l <"$jobs_file")" = 2
expect "a progress bar" "$tmp/submit2.err" "tasks done,"
expect "merged" "$tmp/submit2.out" "merged into $bundle/results.json"
for t in 0 1 2; do
	truth "ref fragment $t" test -f "$bundle/slurm/fragments/ref/$t.json"
	truth "each task its own work directory ($t)" test -d "$bundle/slurm/work/gfx90a/$t" -o "$t" = 1
done
expect "the reference task's reason, for the port task" "$bundle/slurm/refs/transpose.transpose_kernel.why" \
	"reference build failed (exit 1): nvcc: a stand-in"
truth "port fragments of the tasks that ran" test -f "$bundle/slurm/fragments/gfx90a/0.json" -a \
	-f "$bundle/slurm/fragments/gfx90a/2.json" -a ! -f "$bundle/slurm/fragments/gfx90a/1.json"
truth "results: the cancelled task's check is an error with the scheduler's word" python3 - "$bundle/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
by = {c["name"]: c for c in r["checks"]}
assert r["schema"] == "hipport-check-results" and len(by) == 3, by.keys()
bad = by["scaled_add.scaled_add_kernel"]
assert bad["status"] == "error" and "CANCELLED" in bad["message"] and "slurm: array task" in bad["message"], bad
for n in ("scaled_add.scaled_add_half2_kernel", "transpose.transpose_kernel"):
    assert by[n]["status"] == "no-device" and by[n]["platform"] == "amd", by[n]
PY
expect "the import prints the error" "$tmp/submit2.out" "scaled_add.scaled_add_kernel: error (amd): slurm: array task ${port_job}_1 cancelled (CANCELLED"
check "status after the first run" 0 "$hipport" -C "$repo" status
expect "status shows the error" "$tmp/out" "src/scaled_add.cu: pending"
expect "status counts the checks" "$tmp/out" "; 1 checks error; 1 checks no-device"

# 3. a re-submission runs only what did not finish: port task 1; through a
# login host (check.slurmHost), here an ssh that runs the command line it is
# given with sh, as sshd would
printf '#!/bin/sh\n[ "$1 $2 $3" = "-o BatchMode=yes login-test" ] || exit 255\nprintf "%%s\\n" "$4" >>"%s"\nexec sh -c "$4"\n' \
	"$tmp/ssh.log" >"$tmp/bin/ssh" && chmod +x "$tmp/bin/ssh"
printf '[check]\n\tslurmHost = login-test\n' >>"$repo/.hipport/config"
check "--submit again" 0 env PATH="$tmp/bin:$PATH" "$hipport" -C "$repo" check --submit "$bundle"
expect "sbatch ran through the login host" "$tmp/ssh.log" "'sbatch' '--parsable' '--chdir=$bundle' '--array=1'"
expect "the queue read through it too" "$tmp/ssh.log" "'scontrol' '-o' 'show' 'job'"
cp "$tmp/config.good" "$repo/.hipport/config"
truth "one more submission" test "$(wc -l <"$jobs_file")" = 3
truth "only port task 1, no reference" test "$(tail -n 1 "$jobs_file" | cut -d' ' -f1,3)" = "gfx90a 1"
expect "resubmitted without a dependency (its reference is done)" "$tmp/out" "submitted gfx90a: job"
truth "all three checks no-device" python3 - "$bundle/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert [c["status"] for c in r["checks"]] == ["no-device"] * 3, r["checks"]
PY
check "status after the re-submission" 0 "$hipport" -C "$repo" status
expect "status: scaled_add's checks" "$tmp/out" "src/scaled_add.cu: pending, 4 hunks (0 accepted, 0 rejected, 0 edited, 4 pending); 0 errors, 1 warnings, 0 notes; 2 checks no-device"
expect "status: transpose's check" "$tmp/out" "src/transpose.cu: pending, 3 hunks (0 accepted, 0 rejected, 0 edited, 3 pending); 0 errors, 0 warnings, 0 notes; 1 checks no-device"

# 4. all done: --submit submits nothing and merges again
check "--submit when all is done" 0 "$hipport" -C "$repo" check --submit "$bundle"
truth "nothing submitted" test "$(wc -l <"$jobs_file")" = 3

# 5. the walk in a terminal: bundle, --submit with its progress bar, the
# results imported, hipport status showing them (tmux, where it exists)
if command -v tmux >/dev/null 2>&1; then
	sock=$tmp/tmux.sock
	walk=$tmp/walk.sh
	cat >"$walk" <<WALK
cd "$repo" || exit 2
"$hipport" check --bundle "$tmp/bundle2" --slurm src/histogram.cu && "$hipport" check --submit "$tmp/bundle2"
echo "submit exit \$?"
"$hipport" status src/histogram.cu
echo WALK-DONE
sleep 120
WALK
	tmux -S "$sock" new-session -d -s walk -x 160 -y 40 \
		"env SLURM_CONF='$SLURM_CONF' PATH='$PATH' HIPCC='$HIPCC' NVCC='$NVCC' sh '$walk'" || exit 2
	pane() { tmux -S "$sock" capture-pane -p -J -S -100 -t walk >"$tmp/pane" 2>/dev/null && grep -qF -- "$1" "$tmp/pane"; }
	truth "terminal: submitted" wait_for 30 pane "submitted gfx90a: job"
	truth "terminal: a progress bar" wait_for 30 pane "tasks done,"
	truth "terminal: the walk ends" wait_for 90 pane WALK-DONE
	expect "terminal: the bar redrawn in place, complete" "$tmp/pane" "[##############################] 4/4 tasks done, 0 running, 0 pending, 0 failed"
	expect "terminal: merged" "$tmp/pane" "merged into $tmp/bundle2/results.json"
	# the example's histogram port does not build for gfx90a without its
	# ATOM fix: the array tasks report that, as a local run.sh would
	expect "terminal: imported" "$tmp/pane" "histogram.weighted_histogram_kernel: error (amd): port build failed (exit 1): port/src/histogram.cu:63:17: error: no matching function for call to 'atomicAdd'"
	expect "terminal: submit exit" "$tmp/pane" "submit exit 1"
	expect "terminal: status shows the results" "$tmp/pane" "src/histogram.cu: pending, 8 hunks (0 accepted, 0 rejected, 0 edited, 8 pending); 1 errors, 0 warnings, 0 notes; 2 checks error"
	tmux -S "$sock" kill-server 2>/dev/null
else
	echo "terminal walk skipped: tmux is not installed"
fi

finish
