#!/bin/sh
# hipport doctor --binary: the code objects of binaries built here with
# hipcc, against --gpu lists under HIP_VISIBLE_DEVICES,
# HSA_OVERRIDE_GFX_VERSION, HSA_XNACK and PYTORCH_ROCM_ARCH; the listing
# against clang-offload-bundler's; truncated and foreign files. With
# HIPPORT_ROCM_ROOT (tools/rocm-root's DIR: DIR/bin holds its hipcc) the
# binaries are built for gfx942 and gfx90a by HIP 6.4, else for gfx90a and
# gfx908 by the hipcc on PATH (Debian 12's HIP 5.2); skipped without either.
# usage: test-doctor-binary.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
unset HIP_PLATFORM PYTORCH_ROCM_ARCH HSA_OVERRIDE_GFX_VERSION HIP_VISIBLE_DEVICES HSA_XNACK
HIPPORT_HIP_RUNTIME=none # no probe: the GPUs come from --gpu
export HIPPORT_HIP_RUNTIME

if [ -n "$HIPPORT_ROCM_ROOT" ] && [ -x "$HIPPORT_ROCM_ROOT/bin/hipcc" ]; then
	bin=$HIPPORT_ROCM_ROOT/bin
	hipcc=$bin/hipcc
	bundler=$bin/clang-offload-bundler
	readelf=$bin/llvm-readelf
	a=gfx942 b=gfx90a override=9.0.10 rocm6=1
elif command -v hipcc >/dev/null 2>&1; then
	hipcc=hipcc
	bundler=$(command -v clang-offload-bundler-15 || command -v clang-offload-bundler)
	readelf=$(command -v llvm-readelf-15 || command -v llvm-readelf)
	a=gfx90a b=gfx908 override=9.0.8 rocm6=
else
	echo "skip: no hipcc (set HIPPORT_ROCM_ROOT or install hipcc)"
	exit 77
fi

cat >"$tmp/k.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() { int *d; (void)hipMalloc(&d, 256); hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d); return 0; }
HIP
# build NAME HIPCC-ARGS...: $tmp/NAME from k.hip
build() {
	name=$1
	shift
	(cd "$tmp" && "$hipcc" -w "$@" -o "$tmp/$name" "$tmp/k.hip") >"$tmp/build.log" 2>&1 ||
		{ echo "FAIL build $name: $*"; sed 's/^/  /' "$tmp/build.log" | tail -5; exit 1; }
}
build one --offload-arch=$a
build two --offload-arch=$b --offload-arch=$a
build xn --offload-arch=$a:xnack+ --offload-arch=$b:xnack-
build lib.so --offload-arch=$a -shared -fPIC
build k.hsaco --offload-arch=$a --genco
build obj.o --offload-arch=$b --offload-arch=$a -c
build rdc.o --offload-arch=$b --offload-arch=$a -fgpu-rdc -c
if [ -n "$rocm6" ]; then
	build comp --offload-arch=$b --offload-arch=$a --offload-compress
	build raw.co --offload-arch=$a:xnack+ --cuda-device-only --no-gpu-bundle-output
fi

# doctor_json NAME EXIT [VAR=VALUE...] -- ARGS...: doctor --binary --format
# json with those variables exits EXIT, valid against the schema; $tmp/out.
doctor_json() {
	name=$1
	want=$2
	shift 2
	vars=
	while [ "$1" != "--" ]; do
		vars="$vars $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	(cd "$tmp" && env $vars "$hipport" doctor --format json --binary "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	truth "$name: exit $want (got $rc)" [ "$rc" = "$want" ]
	truth "$name: valid against docs/doctor-json.schema.json" python3 "$src/tests/cli/validate.py" \
		"$src/docs/doctor-json.schema.json" "$tmp/out"
}
# json_has NAME PYTHON-EXPRESSION: holds for doc and b, its first binary
json_has() {
	truth "$1" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
b = doc["binaries"][0]
targets = [o["target"] for o in b["code_objects"]]
verdicts = [g["verdict"] for g in b["gpus"]]
ids = [f["id"] for f in b["findings"]] + [f["id"] for f in doc["findings"]]
assert eval(sys.argv[2]), (sys.argv[2], b, doc["findings"])
' "$tmp/out" "$2"
}

# one arch, two, the xnack variants
doctor_json "one arch" 0 -- one --gpu $a
json_has "one arch: listed" 'targets == ["'$a'"] and b["format"] == "executable" and b["bundles"] == 1'
json_has "one arch: runs" 'verdicts == ["runs"] and b["gpus"][0]["code_object"] == "'$a'" and not ids'
doctor_json "one arch, other GPU" 1 -- one --gpu $b
json_has "other GPU: no code object, ENV-011 error" 'verdicts == ["no-code-object"] and ids == ["ENV-011"] and b["findings"][0]["severity"] == "error" and "hipErrorNoBinaryForGpu" in b["findings"][0]["message"]'
doctor_json "two archs" 0 -- two --gpu $a --gpu $b
json_has "two archs: listed" 'sorted(targets) == sorted(["'$a'", "'$b'"]) and verdicts == ["runs", "runs"]'
doctor_json "one of two GPUs" 0 -- one --gpu $a --gpu $b
json_has "one of two GPUs: a warning" 'verdicts == ["runs", "no-code-object"] and b["findings"][0]["severity"] == "warning"'
doctor_json "only the other one visible" 1 HIP_VISIBLE_DEVICES=1 -- one --gpu $a --gpu $b
json_has "visible: the first hidden" 'verdicts == ["hidden", "no-code-object"] and b["error"]'
doctor_json "none visible" 1 HIP_VISIBLE_DEVICES=-1 -- one --gpu $a
json_has "none visible: ENV-009" '"ENV-009" in ids'
doctor_json "xnack variants" 1 -- xn --gpu $a
json_has "xnack: target ids" 'sorted(targets) == sorted(["'$a':xnack+", "'$b':xnack-"])'
json_has "xnack off by default: ENV-012" 'verdicts == ["feature-mismatch"] and ids == ["ENV-012"] and b["gpus"][0]["looks_for"] == "'$a':xnack-"'
doctor_json "xnack on" 0 HSA_XNACK=1 -- xn --gpu $a
json_has "HSA_XNACK=1: the xnack+ code loads" 'b["gpus"][0]["code_object"] == "'$a':xnack+"'
doctor_json "xnack+ GPU" 1 -- xn --gpu $b:xnack+
json_has "xnack+ GPU, xnack- code: ENV-012" 'verdicts == ["feature-mismatch"]'
doctor_json "xnack- GPU" 0 -- xn --gpu $b:xnack-
json_has "xnack- GPU: loads" 'verdicts == ["runs"]'

# HSA_OVERRIDE_GFX_VERSION: the GPU poses as $b, or $b poses as $a
doctor_json "override to a missing arch" 1 HSA_OVERRIDE_GFX_VERSION=$override -- one --gpu $a
json_has "override: looks for $b" 'b["gpus"][0]["looks_for"].startswith("'$b'") and ids == ["ENV-011"] and "HSA_OVERRIDE_GFX_VERSION" in b["findings"][0]["message"]'
doctor_json "override loads another processor's code" 0 HSA_OVERRIDE_GFX_VERSION=$override -- two --gpu $a
json_has "override: ENV-013" 'verdicts == ["runs-overridden"] and ids == ["ENV-013"] and "Illegal instruction" in b["findings"][0]["message"]'

# PYTORCH_ROCM_ARCH: an arch the library lacks
doctor_json "pytorch arch" 0 "PYTORCH_ROCM_ARCH=$a;$b" -- lib.so --gpu $a
json_has "pytorch arch: ENV-014 for $b" 'b["format"] == "shared library" and ids == ["ENV-014"] and "'$b'" in b["findings"][0]["message"]'

# objects, bundles, code objects
doctor_json "object" 0 -- obj.o --gpu $a
json_has "object: listed" 'b["format"] == "object file" and sorted(targets) == sorted(["'$a'", "'$b'"])'
doctor_json "rdc object" 0 -- rdc.o --gpu $a
json_has "rdc object: bitcode, ENV-015" 'set(o["kind"] for o in b["code_objects"]) == {"bitcode"} and ids == ["ENV-015"]'
doctor_json "genco" 0 -- k.hsaco --gpu $a
json_has "genco: a bundle" 'b["format"] == "offload bundle" and targets == ["'$a'"]'
if [ -n "$rocm6" ]; then
	doctor_json "compressed" 0 -- comp --gpu $a --gpu $b
	json_has "compressed: listed" 'b["compressed_bundles"] == 1 and sorted(targets) == sorted(["'$a'", "'$b'"]) and all(o["compressed"] for o in b["code_objects"])'
	doctor_json "raw code object" 1 -- raw.co --gpu $a
	json_has "raw code object: e_flags" 'b["format"] == "code object" and targets == ["'$a':xnack+"]'
fi

# the listing against clang-offload-bundler's and llvm-readelf's
ids_of() { # ids_of FILE: the bundle ids doctor lists, sorted
	(cd "$tmp" && "$hipport" doctor --format json --binary "$1" --gpu $a) |
		python3 -c 'import json, sys; print("\n".join(sorted(o["bundle_id"] for o in json.load(sys.stdin)["binaries"][0]["code_objects"])))'
}
if [ -n "$bundler" ]; then
	# its --list of k.hsaco, and of two's .hip_fatbin cut out with the offsets llvm-readelf gives
	"$bundler" --list --type=o --input="$tmp/k.hsaco" | grep -v '^host-' | sort >"$tmp/want"
	ids_of k.hsaco >"$tmp/got"
	truth "genco: the bundler's list" cmp -s "$tmp/want" "$tmp/got"
	if [ -n "$readelf" ]; then
		"$readelf" -S -W "$tmp/two" | awk '$2 == ".hip_fatbin" { print $5, $6 }' >"$tmp/sect"
		truth "llvm-readelf names .hip_fatbin" [ -s "$tmp/sect" ]
		read -r off size <"$tmp/sect"
		python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); o, n = int(sys.argv[2], 16), int(sys.argv[3], 16); open(sys.argv[4], "wb").write(d[o:o + n])' \
			"$tmp/two" "$off" "$size" "$tmp/two.fatbin"
		"$bundler" --list --type=o --input="$tmp/two.fatbin" | grep -v '^host-' | sort >"$tmp/want"
		ids_of two >"$tmp/got"
		truth "executable: the bundler's list of .hip_fatbin" cmp -s "$tmp/want" "$tmp/got"
	fi
else
	echo "skip: no clang-offload-bundler to compare with"
fi

# text
(cd "$tmp" && HSA_OVERRIDE_GFX_VERSION=$override "$hipport" doctor --binary two --gpu $a) >"$tmp/out" 2>"$tmp/err"
expect "text: the code object" "$tmp/out" "code object, "
expect "text: the verdict" "$tmp/out" "GPU 0 ($a): loads $b, built for another processor"
expect "text: the finding" "$tmp/out" "ENV-013 warning: two: HSA_OVERRIDE_GFX_VERSION=$override"

# bad files and options: exit 2, the file and the problem named
head -c 100 "$tmp/one" >"$tmp/cut-header"
size=$(wc -c <"$tmp/one")
head -c $((size - 100)) "$tmp/one" >"$tmp/cut-tail"
check "not a binary" 2 "$hipport" doctor --binary "$tmp/k.hip"
expect "not a binary: named" "$tmp/err" "k.hip: neither an ELF file nor an offload bundle"
check "truncated header" 2 "$hipport" doctor --binary "$tmp/cut-header"
expect "truncated: named" "$tmp/err" "cut-header: truncated"
check "truncated tail" 2 "$hipport" doctor --binary "$tmp/cut-tail"
expect "truncated tail: named" "$tmp/err" "cut-tail: truncated"
check "missing file" 2 "$hipport" doctor --binary "$tmp/nothing"
check "no file" 2 "$hipport" doctor --binary
check "bad gpu" 2 "$hipport" doctor --binary "$tmp/one" --gpu banana
expect "bad gpu: named" "$tmp/err" "--gpu: 'banana' is not an AMD GPU arch"
check "gpu without binary" 2 "$hipport" doctor --gpu $a
check "help" 0 "$hipport" doctor --help
expect "help names --binary" "$tmp/out" "--binary"
finish
