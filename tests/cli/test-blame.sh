#!/bin/sh
# Blame the right side (docs/checks.md): a bundle's run.sh with a stand-in
# nvcc whose "binaries" crash or pass as told, and a stand-in
# compute-sanitizer that reports an invalid access at a given address (as
# compute-sanitizer 12 does) or prints a log 13 printed. A reference that
# crashes makes the spec the suspect and names the argument the address
# falls past (or shared memory, a failing call, an assert); memcheck finds
# nothing only where its summary says 0 errors; a port that fails where its
# kernel is the original's is a check problem, and one whose outputs differ
# on one compiler and one GPU (the proxy) says where to look first; a port that fails after a
# reference that reads out of bounds when checked is the spec's fault too.
# usage: test-blame.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp/bin" || exit 2
. "$src/tests/cli/lib.sh"

# nvcc: -o OUT makes OUT a script that behaves as FAKE_REF or FAKE_PORT say
# (ok: exit 0; crash: SIGSEGV), writing the argument map the harness writes
cat >"$tmp/bin/nvcc" <<'EOF'
#!/bin/sh
out= side=port
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	-DHIPPORT_PLATFORM_ID=0) side=ref ;;
	esac
	shift
done
if [ "${FAKE_BUILD:-}" = fail ]; then
	echo "harness/scale.scale.cu(14): error: no instance of function template \"scale\" matches the argument list"
	exit 2
fi
cat >"$out" <<SCRIPT
#!/bin/sh
[ -n "\${HIPPORT_ARGS_MAP:-}" ] && printf 'x 4096 400\nout 8192 400\n' >>"\$HIPPORT_ARGS_MAP"
case \${FAKE_$(echo $side | tr a-z A-Z):-ok} in
crash) kill -SEGV \$\$ ;;
racy) [ \$# -ge 3 ] && exit 1 ;;
nothing) echo "scale.scale: error: nothing to compare: no argument or __device__ global of the spec is an output"; exit 2 ;;
differ) [ \$# -ge 3 ] && printf '{"name": "scale.scale", "source": "scale.cu", "kernel": "scale", "status": "fail", "platform": "nvidia-proxy", "arch": "sm_90", "device": "", "reference": {"platform": "nvidia", "arch": "sm_90"}, "message": "out: 1 of 400 values beyond tolerance", "errors": []}\n' >"\$3"; exit 1 ;;
esac
exit 0
SCRIPT
chmod +x "$out"
EOF
# compute-sanitizer: runs the program, then reports as 12 does a read at
# FAKE_ADDRESS (else no error), or prints FAKE_LOG, what 13 printed for a
# program of the GPU trial (tests/cli/sanitizer/)
cat >"$tmp/bin/compute-sanitizer" <<'EOF'
#!/bin/sh
shift 4 # --tool memcheck --print-limit N
"$@"
if [ -n "${FAKE_LOG:-}" ]; then
	cat "$FAKE_LOG"
	exit 1
fi
echo "========= COMPUTE-SANITIZER"
if [ -z "${FAKE_ADDRESS:-}" ]; then
	echo "========= ERROR SUMMARY: 0 errors"
	exit 0
fi
echo "========= Invalid __global__ read of size 4 bytes"
echo "=========     at 0x70 in scale(float *, float *, int)"
echo "=========     by thread (0,0,0) in block (0,0,0)"
echo "=========     Address $FAKE_ADDRESS is out of bounds"
echo "========= "
echo "========= ERROR SUMMARY: 1 error"
exit 1
EOF
chmod +x "$tmp/bin/nvcc" "$tmp/bin/compute-sanitizer"

repo=$tmp/repo
mkdir -p "$repo" || exit 2
cat >"$repo/scale.cu" <<'EOF'
#include <cuda_runtime.h>
__global__ void scale(const float *x, float *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * x[i];
}
EOF
(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm k) || exit 2
check "draft" 0 "$hipport" -C "$repo" check draft scale.cu
check "bundle" 0 "$hipport" -C "$repo" check bundle "$tmp/b" scale.cu
b=$tmp/b
truth "checks.list says the kernel is unchanged" sh -c "cut -f7 '$b/checks.list' | grep -qx 1"

# run SANITIZER ENV...: run.sh with the stand-ins; the first result's message in $tmp/msg
run() {
	s=$1
	shift
	env NVCC="$tmp/bin/nvcc" PORT_PLATFORM=nvidia-proxy NVCC_ARCH=sm_90 COMPUTE_SANITIZER="$s" RECORD=0 "$@" \
		sh "$b/run.sh" >"$tmp/run.out" 2>&1
	python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["checks"][0]; print(c["status"], c["message"])' \
		"$b/results.json" >"$tmp/msg" 2>&1
}

run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_ADDRESS=0x1290
expect "reference crash: the spec blamed" "$tmp/msg" "error the spec is the suspect, not the port: the reference (the original CUDA, nvcc) failed (killed by signal 11)"
expect "reference crash: the argument named" "$tmp/msg" "at byte 656 of argument x, which the spec sizes at 400 bytes: its count is suspect"
expect "reference crash: the port not run" "$tmp/msg" "the port was not run"

# a spec with no output: said as such, the port neither run nor blamed
run "$tmp/bin/compute-sanitizer" FAKE_REF=nothing FAKE_PORT=nothing
expect "nothing to compare: said" "$tmp/msg" "error the kernel has nothing to compare: no argument or __device__ global of the spec is an output"
expect "nothing to compare: the port not run" "$tmp/msg" "the port was not run"
truth "nothing to compare: no blame" sh -c "! grep -q 'suspect\|port run failed' '$tmp/msg'"

run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_ADDRESS=0x100
expect "an address in no buffer" "$tmp/msg" "in no buffer the spec gives"

run "$tmp/bin/compute-sanitizer" FAKE_REF=crash
expect "sanitizer found nothing" "$tmp/msg" "compute-sanitizer's memcheck found no invalid access"

run none FAKE_REF=crash
expect "no sanitizer: said so" "$tmp/msg" "compute-sanitizer is not installed here"

# what compute-sanitizer 13 prints ("Access to 0x..."; cs13-global-read.log's
# first address moved to byte 656 past x): found, never "no invalid access"
logs=$src/tests/cli/sanitizer
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-global-read.log"
expect "13: the argument named" "$tmp/msg" "compute-sanitizer: Invalid __global__ read of size 4 bytes at byte 656 of argument x, which the spec sizes at 400 bytes"
truth "13: not said clean" sh -c "! grep -q 'found no invalid access' '$tmp/msg'"
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-shared-write.log"
expect "13: shared memory" "$tmp/msg" "compute-sanitizer: Invalid __shared__ write of size 4 bytes at shared address 0x604, out of the block's shared memory"
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-program-hit.log"
expect "13: a failing call" "$tmp/msg" 'compute-sanitizer: the program hit cudaErrorInvalidValue (error 1) due to "invalid argument" on CUDA API call to cudaLaunchKernel'
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-warp-assert.log"
expect "13: another error" "$tmp/msg" "compute-sanitizer: Warp assert (5 errors in all)"
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-clean.log"
expect "13: a summary of 0 errors" "$tmp/msg" "compute-sanitizer's memcheck found no invalid access"
run "$tmp/bin/compute-sanitizer" FAKE_REF=crash FAKE_LOG="$logs/cs13-no-summary.log"
expect "13: no summary: not finished" "$tmp/msg" "compute-sanitizer's memcheck did not finish (no error summary"
truth "13: no summary: not said clean" sh -c "! grep -q 'found no invalid access' '$tmp/msg'"

# an original whose second run differs from its first and that reads past
# a buffer under memcheck: the spec's sizes, not nondeterminism
run "$tmp/bin/compute-sanitizer" FAKE_REF=racy FAKE_PORT=differ FAKE_ADDRESS=0x1290
expect "racy original reading out of bounds: the spec blamed" "$tmp/msg" "error the spec is the suspect, not the port: a second run of the original differs from its first"
expect "racy original reading out of bounds: the argument named" "$tmp/msg" "at byte 656 of argument x, which the spec sizes at 400 bytes"
run "$tmp/bin/compute-sanitizer" FAKE_REF=racy FAKE_PORT=differ
expect "racy original, memcheck clean: nondeterministic" "$tmp/msg" "error nondeterministic: a second run of the original differs from its first too"

run none FAKE_PORT=crash
expect "unchanged kernel: a check problem" "$tmp/msg" "error a check problem, not the port: the kernel's source is the original's"

# a spec that builds on neither side: never the port's failure
run none FAKE_BUILD=fail
expect "neither side builds: not the port" "$tmp/msg" "error the spec or the program's build, not the port: the original does not build with it either, with the same first error; reference build failed (exit 2): harness/scale.scale.cu(14): error: no instance"

# outputs that differ, on one compiler and one GPU, from the same kernel source
run none FAKE_PORT=differ
expect "unchanged kernel differs on the proxy: where to look" "$tmp/msg" "fail (the kernel and its device functions are the original's, unchanged by the port, and one compiler built both for one GPU: look first for a race the original's second run did not show, a macro the port changed, or the harness) out: 1 of 400 values beyond tolerance"

run "$tmp/bin/compute-sanitizer" FAKE_PORT=crash FAKE_ADDRESS=0x2200
expect "port crash, reference out of bounds when checked" "$tmp/msg" "the reference fails too when checked under compute-sanitizer's memcheck"
expect "port crash: the argument named" "$tmp/msg" "at byte 512 of argument out, which the spec sizes at 400 bytes"

# a port whose kernel the engineer changed is the port's failure
check "apply" 0 "$hipport" -C "$repo" apply scale.cu
sed -i 's/out\[i\] = 2 \* x\[i\]/out[i] = x[i] + x[i]/' "$repo/scale.cu"
check "bundle of a changed kernel" 0 "$hipport" -C "$repo" check bundle "$tmp/b" scale.cu
truth "checks.list says the kernel changed" sh -c "cut -f7 '$b/checks.list' | grep -qx 0"
run none FAKE_PORT=crash
expect "changed kernel: the port's failure" "$tmp/msg" "error port run failed (killed by signal 11)"
run none FAKE_PORT=differ
expect "changed kernel that differs: the port fails" "$tmp/msg" "fail out: 1 of 400 values beyond tolerance"
finish
