#!/bin/sh
# tools/gen-torch-rules on small tables in hipify_torch's shape (written for
# this test): what it takes, what it leaves to the HIPIFY rules, what it
# leaves out; deterministic output; bad input; and the repository's
# rules/torch-*.tsv up to date with ../shared/reference/hipify-torch.
# usage: test-gen-torch-rules.sh SOURCE_DIR
set -u
src=$1
tool="$src/tools/gen-torch-rules"
tables="$src/tests/tools/torch-rules"
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
has() { # file, row prefix (tab-separated fields)
	grep -q "^$(printf '%b' "$2")" "$1" || { echo "FAIL $(basename "$1"): no row '$2'"; fail=1; }
}
lacks() { # file, cuda name
	if cut -f1 "$1" | grep -qx "$2"; then echo "FAIL $(basename "$1"): a row for '$2'"; fail=1; fi
}

mkdir "$tmp/out" "$tmp/out2"
python3 "$tool" --tables "$tables" --rules "$tables/rules" --out "$tmp/out" 2>"$tmp/err" ||
	{ echo "FAIL the generator exited $?"; cat "$tmp/err"; exit 1; }
v1="$tmp/out/torch-v1.tsv"
v2="$tmp/out/torch-v2.tsv"
has "$v1" 'cuda::getCurrentCUDAStream\thip::getCurrentHIPStreamMasqueradingAsCUDA\t-\tqualified\ttorch-v1'
has "$v1" 'getCurrentCUDAStream\tgetCurrentHIPStreamMasqueradingAsCUDA\t-\tfunction'
has "$v1" 'C10_CUDA_CHECK\tC10_HIP_CHECK\t-\tconstant'
# PyTorch's table comes after c10's: its header wins, as in hipify_torch
has "$v1" 'c10/cuda/CUDAGuard.h\tATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h\t-\theader'
has "$v1" 'cub/warp/warp_reduce.cuh\thipcub/hipcub.hpp\t-\theader'
has "$v1" 'cudaSomethingNew\thipSomethingNew\t-\tfunction'
has "$v1" 'ATen/cuda/\*\tATen/hip/\*\t-\theader'
lacks "$v1" cudaMalloc             # the HIPIFY rules know it
lacks "$v1" cudaStream_t
lacks "$v1" cublas_v2.h            # the new-ROCm branch equals the HIPIFY rule
lacks "$v1" cudaNotThere           # HIP_UNSUPPORTED
lacks "$v1" CUDAContext            # Caffe2's
lacks "$v1" CUDA_LAUNCH_BLOCKING=1 # not a name, a qualified name or a header
has "$v2" 'c10/cuda/CUDAGuard.h\tc10/hip/HIPGuard.h\t-\theader\ttorch-v2'
has "$v2" 'gloo/cuda.h\tgloo/hip.h\t-\theader'
lacks "$v2" getCurrentCUDAStream
grep -q "left out: 2 caffe2 or unsupported, 3 decided by the HIPIFY rules, 1 other shapes" "$tmp/err" ||
	{ echo "FAIL the v1 summary:"; cat "$tmp/err"; fail=1; }

python3 "$tool" --tables "$tables" --rules "$tables/rules" --out "$tmp/out2" 2>/dev/null
cmp -s "$v1" "$tmp/out2/torch-v1.tsv" && cmp -s "$v2" "$tmp/out2/torch-v2.tsv" ||
	{ echo "FAIL two runs differ"; fail=1; }

# Bad input: an error naming the file, exit 2, nothing written.
mkdir "$tmp/bad" "$tmp/bad-out"
cp "$tables/cuda_to_hip_mappings_v2.py" "$tmp/bad/"
printf 'import collections\nCUDA_IDENTIFIER_MAP = collections.OrderedDict([\n    ("cudaX", hip_name),\n])\n' \
	>"$tmp/bad/cuda_to_hip_mappings_v1.py"
python3 "$tool" --tables "$tmp/bad" --rules "$tables/rules" --out "$tmp/bad-out" 2>"$tmp/err"
code=$?
[ "$code" = 2 ] || { echo "FAIL a malformed table: exit $code, expected 2"; fail=1; }
grep -q "cuda_to_hip_mappings_v1.py:3: " "$tmp/err" || { echo "FAIL the message names file and line:"; cat "$tmp/err"; fail=1; }
[ -z "$(ls "$tmp/bad-out")" ] || { echo "FAIL files written for bad input"; fail=1; }
python3 "$tool" --tables "$tmp/none" --rules "$tables/rules" --out "$tmp/bad-out" 2>"$tmp/err"
[ $? = 2 ] && grep -q "cuda_to_hip_mappings_v1.py" "$tmp/err" || { echo "FAIL a missing table"; fail=1; }

# The repository's rules are what the generator makes of the shared tables.
if [ -d "$src/../shared/reference/hipify-torch" ]; then
	mkdir "$tmp/repo"
	python3 "$tool" --out "$tmp/repo" 2>/dev/null
	for v in v1 v2; do
		cmp -s "$tmp/repo/torch-$v.tsv" "$src/rules/torch-$v.tsv" ||
			{ echo "FAIL rules/torch-$v.tsv is not what tools/gen-torch-rules writes"; fail=1; }
	done
else
	echo "note: no ../shared/reference/hipify-torch: rules/torch-*.tsv not compared"
fi
[ "$fail" = 0 ] && echo "gen-torch-rules: all passed"
exit "$fail"
