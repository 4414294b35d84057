#!/bin/sh
# hipport check --draft-spec --from-record DIR (docs/checks.md, "Specs from a
# recording"): a program's recorded launches (a launches.log and its
# SEQ.ARG.bin allocations, written here as share/check/hipport_record.h
# writes them) give exact specs of the kernels it launched; a kernel it did
# not launch keeps its draft; the inputs go beside the specs and into the
# harnesses, where the runtime decodes them to the recorded bytes (built
# over the mock HIP runtime of tests/check). Bad logs are named.
# usage: test-draft-record.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/draft-record-fixture.sh"
repo="$tmp/repo"
rec="$tmp/rec"
draft_record_fixture "$repo" "$rec" || { echo "cannot make the fixture"; exit 2; }

check "draft from the recording" 0 "$hipport" -C "$repo" check --draft-spec --from-record "$rec" prog/main.cu
expect "recorded: said" "$tmp/out" "prog-main.scale_add.check: drafted for scale_add in prog/main.cu (recorded)"
expect "not launched: drafted as before" "$tmp/out" "prog-main.unused_kernel.check: drafted for unused_kernel in prog/main.cu"
checks="$repo/.hipport/checks"
truth "recorded values" python3 - "$checks" "$rec" <<'PY'
import os, re, sys
checks, rec = sys.argv[1], sys.argv[2]
def spec(name):
    text = open(os.path.join(checks, name + ".check")).read()
    out = {}
    for m in re.finditer(r'^\[(\w+)(?: "([^"]*)")?\]\n((?:\t.*\n)*)', text, re.M):
        out[(m.group(1), m.group(2))] = dict(l.strip().split(" = ", 1) for l in m.group(3).splitlines())
    return out, text
s, text = spec("prog-main.scale_add")
c = s[("check", None)]
assert (c["grid"], c["block"], c["sharedBytes"], c["launch"]) == ("2", "128", "64", "prog/main.cu:44"), c
assert "guessed" not in c, c
assert s[("arg", "x")] == {"role": "in", "type": "float", "count": "250", "init": "file inputs/prog-main.scale_add/x.bin"}, s[("arg", "x")]
y = s[("arg", "y")]
assert (y["role"], y["count"], y["offset"], y["init"]) == ("inout", "250", "4", "file inputs/prog-main.scale_add/y.bin"), y
# z: the launch changed it and no launch before left its bytes: drafted, marked
assert s[("arg", "z")]["init"].startswith("uniform -1 1  # guessed: the bytes it held before the launch are not recorded"), s[("arg", "z")]
assert s[("arg", "p")]["value"] == '"hp_from_hex<Params>(\\"fa00000000002040\\")"', s[("arg", "p")]
assert s[("arg", "bias")]["value"] == "0.25f" and s[("arg", "n")]["value"] == "246", s
assert "[var " not in text, text
assert "Drafted from the recorded launch 1 of scale_add at prog/main.cu:44" in text, text
# the inputs are the bytes the allocations held before the launch
inputs = os.path.join(checks, "inputs", "prog-main.scale_add")
assert open(os.path.join(inputs, "x.bin"), "rb").read() == open(os.path.join(rec, "1.0.bin"), "rb").read()
assert open(os.path.join(inputs, "y.bin"), "rb").read() == open(os.path.join(rec, "0.0.bin"), "rb").read()
assert sorted(os.listdir(inputs)) == ["x.bin", "y.bin"], os.listdir(inputs)
f, text = spec("prog-main.fill")
assert f[("check", None)]["grid"] == "2" and f[("arg", "n")]["value"] == "250", f
assert f[("arg", "y")]["init"] == "constant 0", f  # all zeros before it ran
u, text = spec("prog-main.unused_kernel")
assert u[("arg", "n")]["value"] == "4096" and "recorded" not in text, text
PY

# the bundle's harness embeds the inputs; the runtime gives them back
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$tmp/bundle"
harness="$tmp/bundle/harness/prog-main.scale_add.cu"
expect "harness: an embedded input" "$harness" "static const char hp_input_1[] ="
expect "harness: loaded into its buffer" "$harness" 'hp_buffer_input("y", 1, (chk_dtype)2, (size_t)(250) * 1, HP_INOUT, hp_input_1, sizeof(hp_input_1) - 1'
expect "harness: the offset the program passed" "$harness" "hp_arg_y + (4)"
cxx=${CXX:-c++}
if command -v "$cxx" >/dev/null 2>&1; then
	{
		printf '#define HIPPORT_PLATFORM_ID 1\n#include "mock_hip.h"\n#include "hipport_harness.h"\n'
		printf 'struct Params { int n; float scale; };\n'
		sed -n '/^static const char hp_input_/,/;$/p' "$harness"
		cat <<'EOF'
int main(int argc, char **argv)
{
	hp_start(argc, argv, "t", "t.cu", "t", 1234ull, 10);
	hp_device();
	float *x = (float *)hp_buffer_input("x", 0, CHK_F32, 250, HP_IN, hp_input_0, sizeof(hp_input_0) - 1, 0, 0, 0);
	float *y = (float *)hp_buffer_input("y", 1, CHK_F32, 250, HP_INOUT, hp_input_1, sizeof(hp_input_1) - 1, 0, 0, 0);
	Params p = hp_from_hex<Params>("fa00000000002040");
	FILE *f = fopen(argv[1], "wb");
	fwrite(x, 4, 250, f);
	fwrite(y, 4, 250, f);
	fprintf(f, "%d %g", p.n, p.scale);
	fclose(f);
	// a count that is not the recorded size is an error, not a buffer of junk
	hp_buffer_input("y", 2, CHK_F32, 251, HP_IN, hp_input_1, sizeof(hp_input_1) - 1, 0, 0, 0);
	return 0;
}
EOF
	} >"$tmp/decode.cpp"
	check "decoder builds" 0 "$cxx" -std=c++11 -Wall -Wextra -Werror -Wno-unused-parameter -Wno-unused-function \
		-I "$src/tests/check" -I "$src/share/check" -I "$src/src/check/kernel" -o "$tmp/decode" "$tmp/decode.cpp"
	check "a count other than the recorded bytes" 2 "$tmp/decode" "$tmp/decoded"
	expect "said" "$tmp/err" "y: the recorded input has 1000 bytes, its count gives 1004"
	truth "decoded: the recorded bytes" python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
x = open(sys.argv[2] + "/1.0.bin", "rb").read()
y = open(sys.argv[2] + "/0.0.bin", "rb").read()
assert d[:1000] == x and d[1000:2000] == y, "bytes differ"
assert d[2000:] == b"250 2.5", d[2000:]
' "$tmp/decoded" "$rec"
else
	echo "skip the decoder: no C++ compiler"
fi

# bad input: no log, a line that is neither, --from-record without a value
check "no log" 2 "$hipport" -C "$repo" check --draft-spec --from-record "$tmp/none" prog/main.cu
expect "no log: named" "$tmp/err" "$tmp/none/launches.log"
mkdir -p "$tmp/badrec" && printf 'launch 0 fill prog/main.cu:42 grid 2 1 1 block 128 1 1 shared 0 status 0 0\nnonsense\n' \
	>"$tmp/badrec/launches.log"
check "bad log" 2 "$hipport" -C "$repo" check --draft-spec --from-record "$tmp/badrec" prog/main.cu
expect "bad log: file and line" "$tmp/err" "badrec/launches.log:2: neither a launch, an argument nor a printed line"
check "no value" 2 "$hipport" -C "$repo" check --draft-spec --from-record
check "not with bundle" 2 "$hipport" -C "$repo" check bundle "$tmp/nb" --from-record "$tmp/badrec"
expect "not with bundle: said so" "$tmp/err" "--from-record DIR goes with draft FILE"
truth "not with bundle: nothing written" test ! -e "$tmp/nb"
finish
