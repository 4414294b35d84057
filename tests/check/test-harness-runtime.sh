#!/bin/sh
# The harness runtime (share/check/hipport_harness.h with compare.c) built
# with the host C++ compiler over a mock HIP runtime: outputs written, a
# reference compared, pass, fail with the first mismatch, NaN placement,
# no device and runtime errors reported as the bundle's results say them.
# usage: test-harness-runtime.sh SOURCE_DIR TMP_DIR
src=$1
tmp=$2
cxx=${CXX:-c++}
if ! command -v "$cxx" >/dev/null 2>&1; then
	echo "skipped: no C++ compiler"
	exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
bin="$tmp/harness"
check "build" 0 "$cxx" -std=c++11 -Wall -Wextra -Werror -Wno-unused-parameter -I "$src/tests/check" \
	-I "$src/share/check" -I "$src/src/check" -o "$bin" "$src/tests/check/harness_mock.cpp"
[ -x "$bin" ] || { finish; exit 1; }
mkdir -p "$tmp/ref" "$tmp/port"
check "reference run" 0 "$bin" same "$tmp/ref"
truth "outputs written" test -s "$tmp/ref/y.bin" -a -s "$tmp/ref/count.bin" -a ! -e "$tmp/ref/x.bin"
expect "meta: platform" "$tmp/ref/meta.txt" "platform amd"
expect "meta: arch" "$tmp/ref/meta.txt" "arch sm_90"
expect "meta: output" "$tmp/ref/meta.txt" "output y f32 100 "
check "same: pass" 0 "$bin" same "$tmp/port" "$tmp/ref" "$tmp/pass.json"
check "off: fail" 1 "$bin" off "$tmp/port" "$tmp/ref" "$tmp/fail.json"
check "nan: fail" 1 "$bin" nan "$tmp/port" "$tmp/ref" "$tmp/nan.json"
check "no device" 3 "$bin" nodev "$tmp/port" "$tmp/ref" "$tmp/nodev.json"
check "runtime error" 4 "$bin" nomem "$tmp/port" "$tmp/ref" "$tmp/nomem.json"
rm -f "$tmp/ref/y.bin"
check "reference missing" 2 "$bin" same "$tmp/port" "$tmp/ref" "$tmp/noref.json"
truth "results" python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def load(name):
    return json.load(open(d + "/" + name))
p = load("pass.json")
assert p["status"] == "pass" and p["name"] == "mock.k" and p["platform"] == "amd" and p["arch"] == "sm_90", p
assert p["reference"] == {"platform": "amd", "arch": "sm_90"}, p
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
finish
