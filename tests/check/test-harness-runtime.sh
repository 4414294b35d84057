#!/bin/sh
# The harness runtime (share/check/hipport_harness.h with compare.c) built
# with the host C++ compiler over a mock HIP runtime: outputs written, a
# reference compared, pass, fail with the first mismatch, NaN placement,
# no device and runtime errors reported as the bundle's results say them.
# The launch recorder (hipport_record.h) over a mock HIP runtime too. Then a
# bundle's run.sh with a stand-in for nvcc whose "builds" run that mock:
# pass, fail, a hang and a crash through run.sh, which goes on.
# usage: test-harness-runtime.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
cxx=${CXX:-c++}
if ! command -v "$cxx" >/dev/null 2>&1; then
	echo "skipped: no C++ compiler"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
bin="$tmp/harness"
check "build" 0 "$cxx" -std=c++11 -Wall -Wextra -Werror -Wno-unused-parameter -I "$src/tests/check" \
	-I "$src/share/check" -I "$src/src/check/kernel" -o "$bin" "$src/tests/check/harness_mock.cpp"
[ -x "$bin" ] || { finish; exit 1; }
mkdir -p "$tmp/ref" "$tmp/port" "$tmp/gref" "$tmp/gport" "$tmp/nport"
check "reference run" 0 "$bin" same "$tmp/ref"
truth "outputs written" test -s "$tmp/ref/y.bin" -a -s "$tmp/ref/count.bin" -a ! -e "$tmp/ref/x.bin"
expect "meta: platform" "$tmp/ref/meta.txt" "platform nvidia-proxy"
expect "meta: arch" "$tmp/ref/meta.txt" "arch sm_90"
expect "meta: output" "$tmp/ref/meta.txt" "output y f32 100 "
check "same: pass" 0 "$bin" same "$tmp/port" "$tmp/ref" "$tmp/pass.json"
# both sides timed: the reference's time passed on in its meta.txt; the
# bytes its buffers moved (x read, y written, count read and written)
expect "time: the reference's in meta" "$tmp/ref/meta.txt" "time_runs 25"
expect "time: both sides" "$tmp/pass.json" '"time": {"reference": {"median_us": '
expect "time: the device" "$tmp/pass.json" '"runs": 25, "device": "mock device"}'
expect "time: bytes moved" "$tmp/pass.json" '"bytes": 808'
check "time: off" 0 env HIPPORT_TIME=0 "$bin" same "$tmp/port" "$tmp/ref" "$tmp/untimed.json"
expect "time: off, said" "$tmp/untimed.json" '"port": null, "bytes": 808, "note": "HIPPORT_TIME=0"'
check "off: fail" 1 "$bin" off "$tmp/port" "$tmp/ref" "$tmp/fail.json"
check "nan: fail" 1 "$bin" nan "$tmp/port" "$tmp/ref" "$tmp/nan.json"
check "no device" 3 "$bin" nodev "$tmp/port" "$tmp/ref" "$tmp/nodev.json"
# a __device__ global is an output like an argument
check "global: reference" 0 "$bin" global "$tmp/gref"
expect "global: in meta" "$tmp/gref/meta.txt" "output total f32 2 "
check "global: pass" 0 "$bin" global "$tmp/gport" "$tmp/gref" "$tmp/global.json"
check "global: fail" 1 "$bin" globaloff "$tmp/gport" "$tmp/gref" "$tmp/globaloff.json"
expect "global: named" "$tmp/globaloff.json" "total: 1 of 2 values beyond tolerance"
expect "time: the reference's read past its output lines" "$tmp/globaloff.json" '"time": {"reference": {"median_us": '

# comparing nothing is no pass
check "no output: an error" 2 "$bin" nooutput "$tmp/nport" "$tmp/ref" "$tmp/nooutput.json"
expect "no output: said" "$tmp/nooutput.json" "nothing to compare"
check "runtime error" 4 "$bin" nomem "$tmp/port" "$tmp/ref" "$tmp/nomem.json"
check "a hang ends by the alarm (SIGALRM)" 142 env HIPPORT_TIMEOUT=1 "$bin" hang "$tmp/port" "$tmp/ref" "$tmp/hang.json"
check "a crash is the process's" 134 "$bin" crash "$tmp/port" "$tmp/ref" "$tmp/crash.json"
rm -f "$tmp/ref/y.bin"
check "reference missing" 2 "$bin" same "$tmp/port" "$tmp/ref" "$tmp/noref.json"
truth "results" python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def load(name):
    return json.load(open(d + "/" + name))
p = load("pass.json")
assert p["status"] == "pass" and p["name"] == "mock.k" and p["platform"] == "nvidia-proxy" and p["arch"] == "sm_90", p
assert p["reference"] == {"platform": "nvidia-proxy", "arch": "sm_90"}, p
assert [e["arg"] for e in p["errors"]] == ["y", "count"], p
assert all(e["pass"] and e["mismatches"] == 0 and e["first_mismatch"] is None for e in p["errors"]), p
f = load("fail.json")
assert f["status"] == "fail", f
y = f["errors"][0]
assert y["mismatches"] == 1 and y["first_mismatch"] == 7 and abs(y["max_abs"] - 0.5) < 1e-6, y
assert y["tolerance"] == {"abs": 1e-05, "rel": 1e-05, "ulp": 4}, y
assert f["errors"][1]["pass"], f
assert "y: 1 of 100 values beyond tolerance" in f["message"] and "first at 7" in f["message"], f["message"]
n = load("nan.json")
assert n["status"] == "fail" and n["errors"][0]["nan_mismatches"] == 1 and n["errors"][0]["first_mismatch"] == 3, n
nd = load("nodev.json")
assert nd["status"] == "no-device" and "hipErrorNoDevice" in nd["message"] and nd["errors"] == [], nd
nm = load("nomem.json")
assert nm["status"] == "error" and "hipMalloc" in nm["message"] and "hipErrorOutOfMemory" in nm["message"], nm
nr = load("noref.json")
assert nr["status"] == "error" and "y.bin: missing" in nr["message"], nr
PY

# --- the launch recorder over a mock HIP runtime ----------------------------
# share/check/hipport_record.h built by clang as HIP for the host alone:
# a struct argument captured without its copy constructor and destructor
# (CUDA by Example's Lock frees its mutex in ~Lock()), a launch's status its
# own (not an error the program made before it) and left for the program's
# check, no error of the capture's left to the program, what a broken
# context reads as zeroes
clang=${HIPPORT_TEST_CLANG:-clang++}
rec=$tmp/record-mock
if printf '__global__ void k() {}\n' | "$clang" -x hip --cuda-host-only -nogpuinc -nogpulib --offload-arch=gfx90a \
	-fsyntax-only -D'__global__=__attribute__((global))' - >/dev/null 2>&1; then
	check "record: build over the mock" 0 "$clang" -x hip --cuda-host-only -nogpuinc -nogpulib --offload-arch=gfx90a \
		-std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter -I "$src/tests/check/mock" -I "$src/share/check" \
		-o "$rec" "$src/tests/check/record_mock.cpp" -Wl,--defsym,__hip_fatbin=0
	mkdir -p "$tmp/record"
	check "record: run" 0 env HIPPORT_RECORD_DIR="$tmp/record" "$rec"
	expect "record: a struct argument not copied" "$tmp/record/launches.log" "launch 0 locked lock.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0"
	# timed by two events on the launch's stream; a failed launch is not
	expect "record: a launch's time" "$tmp/record/launches.log" "launch 0 locked lock.cu:1 grid 1 1 1 block 1 1 1 shared 0 status 0 0 time 1.000"
	truth "record: no time for a launch that failed" grep -q "^launch 2 fails .* status 1 0$" "$tmp/record/launches.log"
	expect "record: the capture leaves the program no error" "$tmp/out" "after locked: 0"
	expect "record: an earlier error not the launch's" "$tmp/record/launches.log" "launch 1 adds lock.cu:2 grid 1 1 1 block 1 1 1 shared 0 status 0 0"
	expect "record: a launch's own error" "$tmp/record/launches.log" "launch 2 fails lock.cu:3 grid 1 1 1 block 1 1 1 shared 0 status 1 0"
	expect "record: the program still sees it" "$tmp/out" "after fails: 1"
	expect "record: a pointer's template kernel named" "$tmp/record/launches.log" "launch 3 scale lock.cu:5 grid 1 1 1 block 1 1 1 shared 0 status 0 0"
	expect "record: a pointer's kernel named once" "$tmp/record/launches.log" "launch 4 scale lock.cu:6 grid"
	expect "record: a launch call" "$tmp/record/launches.log" "launch 5 adds lock.cu:7 grid 1 1 1 block 1 1 1 shared 0 status 0 0"
	expect "record: a launch call's argument read from its array" "$tmp/record/launches.log" "arg 0 pointer i32 0 4"
	expect "record: a launch call's status" "$tmp/out" "after the call: 0"
	expect "record: what a launch printed" "$tmp/record/launches.log" "printed 15 "
	truth "record: kept as SEQ.printf" test "$(cat "$tmp/record/6.printf")" = "element 0: 1.5"
	expect "record: and still shown" "$tmp/out" "element 0: 1.5"
	expect "record: an assert" "$tmp/record/launches.log" "launch 7 asserts lock.cu:4 grid 1 1 1 block 1 1 1 shared 0 status 0 710"
	truth "record: a broken context reads as zeroes" sh -c "od -An -tx1 '$tmp/record/7.0.bin' | tr -d ' \n' | grep -qx 00000000"
else
	echo "skip the recorder over the mock: $clang does not compile HIP"
fi

# --- run.sh over the mock ----------------------------------------------------
repo="$tmp/repo"
cp -r "$src/share/examples/fastops" "$repo" &&
	(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/bundle" src/transpose.cu src/scaled_add.cu
fake="$tmp/fake-nvcc"
cat >"$fake" <<FAKE
#!/bin/sh
# stands in for nvcc: the program it "builds" runs the mock harness, as the
# reference (MOCK_REF_MODE) or as the port (MOCK_PORT_MODE)
out= id=
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) out=\$2; shift ;;
	-DHIPPORT_PLATFORM_ID=*) id=\${1#*=} ;;
	esac
	shift
done
var=MOCK_REF_MODE
[ "\$id" = 1 ] && var=MOCK_PORT_MODE
printf '#!/bin/sh\nexec %s "\${%s:-same}" "\$@"\n' "$bin" "\$var" >"\$out" && chmod +x "\$out"
FAKE
chmod +x "$fake"
statuses='
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
got = sorted(c["status"] for c in checks)
assert got == sorted(sys.argv[2].split()), (got, [c["message"] for c in checks])
for c in checks:
    assert c["message"], c
    if len(sys.argv) > 3:
        assert sys.argv[3] in c["message"], c["message"]
'
run() { # MODE: run.sh with the port in MODE
	env NVCC="$fake" PORT_PLATFORM=nvidia-proxy MOCK_PORT_MODE="$1" CHECK_TIMEOUT=2 sh "$tmp/bundle/run.sh"
}
check "run.sh: pass" 0 run same
truth "run.sh: all pass" python3 -c "$statuses" "$tmp/bundle/results.json" "pass pass pass"
check "run.sh: fail" 0 run off
truth "run.sh: all fail" python3 -c "$statuses" "$tmp/bundle/results.json" "fail fail fail" "first at 7"
expect "run.sh: table" "$tmp/out" "fail       nvidia-proxy"
# a port that differs from an original that differs from itself is not judged
check "run.sh: a nondeterministic original" 0 env NVCC="$fake" PORT_PLATFORM=nvidia-proxy MOCK_REF_MODE=racy \
	MOCK_PORT_MODE=off sh "$tmp/bundle/run.sh"
truth "run.sh: nondeterminism is an error, no fail" python3 -c "$statuses" "$tmp/bundle/results.json" "error error error" \
	"nondeterministic: a second run of the original differs"
check "run.sh: a hang" 0 run hang
truth "run.sh: hangs are errors" python3 -c "$statuses" "$tmp/bundle/results.json" "error error error" "timed out after 2 s"
check "run.sh: stuck" 0 run stuck
truth "run.sh: stuck runs are ended" python3 -c "$statuses" "$tmp/bundle/results.json" "error error error" "timed out after 2 s"
# without timeout(1): run.sh's own watchdog
mkdir -p "$tmp/path"
for tool in sh dirname rm mkdir sed head tr cut grep tail cat mv sleep chmod; do
	ln -sf "$(command -v $tool)" "$tmp/path/$tool"
done
check "run.sh: stuck, no timeout(1)" 0 env PATH="$tmp/path" NVCC="$fake" PORT_PLATFORM=nvidia-proxy \
	MOCK_PORT_MODE=stuck CHECK_TIMEOUT=2 sh "$tmp/bundle/run.sh"
truth "run.sh: the watchdog ends them" python3 -c "$statuses" "$tmp/bundle/results.json" "error error error" "timed out after 2 s"
check "run.sh: a crash" 0 run crash
truth "run.sh: crashes are errors" python3 -c "$statuses" "$tmp/bundle/results.json" "error error error" "killed by signal 6"
check "run.sh: no device" 0 env NVCC="$fake" PORT_PLATFORM=nvidia-proxy MOCK_REF_MODE=nodev MOCK_PORT_MODE=nodev \
	sh "$tmp/bundle/run.sh"
truth "run.sh: no device" python3 -c "$statuses" "$tmp/bundle/results.json" "no-device no-device no-device" "no GPU"

# a PyTorch extension's sources: the installed torch's flags reach both builds,
# with the project's check.flags and each compiler's own
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$tmp/nvcc-args" "$fake" >"$tmp/logging-nvcc"
printf '#!/bin/sh\necho "-I/fake/torch/include -lc10"\n' >"$tmp/fake-python"
chmod +x "$tmp/logging-nvcc" "$tmp/fake-python"
printf '#include <torch/all.h>\n' >"$tmp/bundle/orig/src/uses_torch.h"
printf "FLAGS='-DGPU_CHECK(x)=(x)'\n" >>"$tmp/bundle/bundle.conf"
check "run.sh: torch flags" 0 env NVCC="$tmp/logging-nvcc" PYTHON="$tmp/fake-python" NVCC_FLAGS=--expt-relaxed-constexpr \
	PORT_PLATFORM=nvidia-proxy sh "$tmp/bundle/run.sh"
truth "run.sh: torch flags in every build" test "$(grep -c -- '-I/fake/torch/include -lc10' "$tmp/nvcc-args")" = 6
truth "run.sh: check.flags in every build" test "$(grep -c -- '-DGPU_CHECK(x)=(x)' "$tmp/nvcc-args")" = 6
truth "run.sh: nvcc's flags" test "$(grep -c -- '--expt-relaxed-constexpr' "$tmp/nvcc-args")" = 6
rm -f "$tmp/bundle/orig/src/uses_torch.h" "$tmp/nvcc-args"
check "run.sh: no torch, no python" 0 env NVCC="$tmp/logging-nvcc" PYTHON=/nonexistent PORT_PLATFORM=nvidia-proxy \
	sh "$tmp/bundle/run.sh"
truth "run.sh: no torch flags" sh -c "! grep -q fake/torch '$tmp/nvcc-args'"
finish
