#!/bin/sh
# hipport doctor: toolchains, GPUs, environment and ENV findings, in text and
# JSON; broken or missing tools are reported, never fatal.
# usage: test-doctor.sh HIPPORT SOURCE_DIR TMP_DIR [FAKE_HIP_RUNTIME]
hipport=$1
src=$2
tmp=$3
fake=$4
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
# a tool that hangs costs this long (seconds)
HIPPORT_TOOL_TIMEOUT=2
export HIPPORT_TOOL_TIMEOUT
unset HIP_PLATFORM PYTORCH_ROCM_ARCH HSA_OVERRIDE_GFX_VERSION HIP_VISIBLE_DEVICES HSA_XNACK

# doctor_json NAME [VAR=VALUE...] -- ARGS...: runs doctor --format json in
# $tmp/plain (outside any repository) with those variables; exit 0 or 1 (1
# exactly when a finding is an error), and the JSON valid against its
# schema. The document is left in $tmp/out.
mkdir -p "$tmp/plain"
doctor_json() {
	name=$1
	shift
	vars=
	while [ "$1" != "--" ]; do
		vars="$vars $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	(cd "$tmp/plain" && env $vars "$hipport" doctor --format json "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	truth "$name: exit 0 or 1, 1 for errors" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "hipport-doctor" and doc["version"] == 1
for key in ("hip", "cuda", "rocminfo", "runtime", "gpus", "env", "offload_arch", "notes", "findings"):
    assert key in doc, key
for f in doc["findings"]:
    assert f["id"].startswith("ENV-") and f["severity"] in ("error", "warning", "note") and f["message"] and f["advice"], f
errors = any(f["severity"] == "error" for f in doc["findings"])
assert int(sys.argv[2]) == (1 if errors else 0), (sys.argv[2], doc["findings"])
' "$tmp/out" "$rc"
	truth "$name: valid against docs/doctor-json.schema.json" python3 "$src/tests/cli/validate.py" \
		"$src/docs/doctor-json.schema.json" "$tmp/out"
}

# json_has NAME PYTHON-EXPRESSION: the expression holds for doc, the last document
json_has() {
	truth "$1" python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
ids = [f["id"] for f in doc["findings"]]
assert eval(sys.argv[2]), (sys.argv[2], doc)
' "$tmp/out" "$2"
}

# the report, and the HIP version of the installed hipcc
doctor_json "json"  --
if command -v hipcc >/dev/null 2>&1 && [ "$(hipconfig --version 2>/dev/null | cut -c1-4)" = "5.2." ]; then
	json_has "hip.version is 5.2" 'doc["hip"]["version"].startswith("5.2")'
else
	echo "skip: hipcc with HIP 5.2 is not installed here, hip.version not compared"
fi
json_has "offload arch: none or the device" 'doc["offload_arch"]["source"] in ("none", "device")'
json_has "env reported" 'set(doc["env"]) == {"HIP_PLATFORM", "PYTORCH_ROCM_ARCH", "HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES", "HSA_XNACK"}'

# PYTORCH_ROCM_ARCH=gfx90a and --offload-arch=gfx942 disagree
doctor_json "pytorch arch" PYTORCH_ROCM_ARCH=gfx90a -- --offload-arch=gfx942
json_has "pytorch arch: ENV-002" '"ENV-002" in ids'
json_has "pytorch arch: from the option" 'doc["offload_arch"] == {"value": "gfx942", "source": "option", "known_to_compiler": doc["offload_arch"]["known_to_compiler"]}'
json_has "pytorch arch: env" 'doc["env"]["PYTORCH_ROCM_ARCH"] == "gfx90a"'
if command -v hipcc >/dev/null 2>&1 && [ "$(hipconfig --version 2>/dev/null | cut -c1-4)" = "5.2." ]; then
	json_has "gfx942 unknown to clang 15: ENV-005" '"ENV-005" in ids and doc["offload_arch"]["known_to_compiler"] is False'
	doctor_json "gfx90a is known" -- --offload-arch=gfx90a:xnack-
	json_has "gfx90a known to clang 15" 'doc["offload_arch"]["known_to_compiler"] is True and "ENV-005" not in ids'
fi

# variables that hide or misname the GPU
doctor_json "override" HSA_OVERRIDE_GFX_VERSION=9.0.10 -- --offload-arch=gfx942
json_has "override vs offload arch: ENV-003" '"ENV-003" in ids'
doctor_json "visible devices" HIP_VISIBLE_DEVICES=-1 --
json_has "no visible device: ENV-009" '"ENV-009" in ids'
doctor_json "platform" HIP_PLATFORM=nvidia --
json_has "HIP_PLATFORM=nvidia: ENV-008" '"ENV-008" in ids and doc["hip"]["platform"] == "nvidia"'

# bad options
check "bad arch" 2 "$hipport" doctor --offload-arch=banana
expect "bad arch named" "$tmp/err" "--offload-arch: 'banana' is not an AMD GPU arch"
check "NVIDIA arch" 2 "$hipport" doctor --offload-arch=sm_90
check "bad format" 2 "$hipport" doctor --format sarif
check "no arguments" 2 "$hipport" doctor src
check "help" 0 "$hipport" doctor --help
expect "help names the option" "$tmp/out" "--offload-arch"

# text: the sections and compiler-style findings
(cd "$tmp/plain" && PYTORCH_ROCM_ARCH=gfx90a "$hipport" doctor --offload-arch=gfx942) >"$tmp/out" 2>"$tmp/err"
truth "text exit 0 or 1" [ $? -le 1 ]
for section in Toolchains GPUs Environment "Offload arch" Findings; do
	expect "text: $section" "$tmp/out" "$section"
done
expect "text: finding" "$tmp/out" "ENV-002 warning: PYTORCH_ROCM_ARCH=gfx90a does not include the offload arch gfx942"
expect "text: advice" "$tmp/out" "    advice: "
expect "text: arch" "$tmp/out" "gfx942 (option)"

# no hipcc anywhere: reported, not fatal
mkdir -p "$tmp/empty"
doctor_json "no hipcc" PATH="$tmp/empty" HIP_PATH=/nonexistent ROCM_PATH=/nonexistent --
json_has "no hipcc: reported" 'doc["hip"]["hipcc"] is None and "ENV-010" in ids'

# a hipconfig that prints garbage, or hangs: noted, the version read elsewhere
mkdir -p "$tmp/garbage" "$tmp/hang"
printf '#!/bin/sh\necho "Traceback (most recent call last): garbage"\n' >"$tmp/garbage/hipconfig"
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/hang/hipconfig"
chmod +x "$tmp/garbage/hipconfig" "$tmp/hang/hipconfig"
doctor_json "garbage hipconfig" PATH="$tmp/garbage:$PATH" --
json_has "garbage hipconfig: noted" 'any("hipconfig --version: unexpected output" in n for n in doc["notes"])'
if command -v hipcc >/dev/null 2>&1; then
	json_has "garbage hipconfig: version from hip_version.h" 'doc["hip"]["version_from"] == "hip_version.h"'
fi
start=$(date +%s)
doctor_json "hanging hipconfig" PATH="$tmp/hang:$PATH" --
json_has "hanging hipconfig: timed out" 'any("hipconfig --version: timed out after 2 s" in n for n in doc["notes"])'
truth "hanging hipconfig: asked once" [ $(($(date +%s) - start)) -lt 20 ]

# no HIP runtime to load: reported
doctor_json "no runtime" HIPPORT_HIP_RUNTIME=/nonexistent/libamdhip64.so --
json_has "no runtime: reported" 'doc["runtime"]["library"] is None and doc["runtime"]["error"] is None'

# GPUs, from a stand-in runtime (tests/fake/amdhip64.c): the arch found
# without knowing the struct's layout, the offload arch taken from it, and
# the variables compared with the device
if [ -n "$fake" ]; then
	doctor_json "fake GPU" HIPPORT_HIP_RUNTIME="$fake" HSA_XNACK=1 --
	json_has "fake GPU: listed" 'doc["gpus"] == [{"vendor": "amd", "index": 0, "name": "AMD Instinct MI300X", "arch": "gfx942:sramecc+:xnack-", "xnack": False, "memory_mib": 196592, "source": "hip"}]'
	json_has "fake GPU: runtime" 'doc["runtime"]["version"] == "6.2.41134" and doc["runtime"]["error"] == 0'
	json_has "fake GPU: offload arch from the device" 'doc["offload_arch"]["value"] == "gfx942:sramecc+:xnack-" and doc["offload_arch"]["source"] == "device"'
	json_has "fake GPU: no ENV-006" '"ENV-006" not in ids and "ENV-007" not in ids'
	doctor_json "fake GPU, other arch" HIPPORT_HIP_RUNTIME="$fake" FAKE_HIP_ARCH=gfx90a:sramecc+:xnack- -- --offload-arch=gfx942
	json_has "offload arch against the device: ENV-001, XNACK off: ENV-007" '"ENV-001" in ids and "ENV-007" in ids'
	doctor_json "fake GPU, pytorch" HIPPORT_HIP_RUNTIME="$fake" FAKE_HIP_ARCH=gfx90a PYTORCH_ROCM_ARCH=gfx942 --
	json_has "PYTORCH_ROCM_ARCH without the device: ENV-002 error" 'any(f["id"] == "ENV-002" and f["severity"] == "error" for f in doc["findings"])'
	doctor_json "fake GPU, override" HIPPORT_HIP_RUNTIME="$fake" FAKE_HIP_ARCH=gfx90a HSA_OVERRIDE_GFX_VERSION=9.4.2 --
	json_has "the override hides nothing from the probe: ENV-004" '"ENV-004" in ids and doc["gpus"][0]["arch"] == "gfx90a"'
	doctor_json "fake GPU, hidden" HIPPORT_HIP_RUNTIME="$fake" HIP_VISIBLE_DEVICES=1 --
	json_has "HIP_VISIBLE_DEVICES past the GPU: ENV-009" '"ENV-009" in ids and len(doc["gpus"]) == 1'
	doctor_json "fake, no device" HIPPORT_HIP_RUNTIME="$fake" FAKE_HIP_DEVICES=0 --
	json_has "no device: ENV-006 with the error" 'any(f["id"] == "ENV-006" and "hipErrorNoDevice (100)" in f["message"] for f in doc["findings"])'
	(cd "$tmp/plain" && HIPPORT_HIP_RUNTIME="$fake" "$hipport" doctor) >"$tmp/out" 2>&1
	expect "text: the GPU" "$tmp/out" "AMD 0: AMD Instinct MI300X, gfx942:sramecc+:xnack-, 196592 MiB (hip)"
else
	echo "skip: no stand-in HIP runtime given, GPU paths not run"
fi

# the repository's check.offloadArch, below the option
repo="$tmp/repo"
mkdir -p "$repo/.hipport" "$repo/sub"
git init -q "$repo" || exit 2
printf '[check]\n\toffloadArch = gfx90a\n' >"$repo/.hipport/config"
check "config arch" 0 "$hipport" -C "$repo/sub" doctor --format json
json_has "config arch: used" 'doc["offload_arch"]["value"] == "gfx90a" and doc["offload_arch"]["source"] == "config"'
check "option over config" 0 "$hipport" -C "$repo" doctor --format json --offload-arch=gfx90a:xnack-
json_has "option over config: used" 'doc["offload_arch"]["value"] == "gfx90a:xnack-" and doc["offload_arch"]["source"] == "option"'
printf '[check]\n\toffloadArch = banana\n' >"$repo/.hipport/config"
check "bad config arch" 2 "$hipport" -C "$repo" doctor
expect "bad config arch named" "$tmp/err" "check.offloadArch: 'banana' is not an AMD GPU arch"

finish
