#!/bin/sh
# Checks follow the change: a port checked kernel by kernel (specs and a
# record run, their results imported), synced to an upstream that changed
# one kernel of the file. The other kernel's check stands, the changed
# one's is to run again, and the record run's too (its launches come from
# the program's host code).
# usage: test-sync-checks.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
repo="$tmp/repo"
hp() { "$hipport" -C "$repo" "$@"; }
g() { git -C "$repo" "$@"; }

mkdir -p "$repo" && git init -q -b main "$repo" || exit 2
cat >"$repo/k2.cu" <<'CU'
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= 2.0f;
}

__global__ void shift(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 1.0f;
}

int main()
{
	int n = 256;
	float *x;
	cudaMalloc(&x, n * sizeof(float));
	scale<<<1, 256>>>(x, n);
	shift<<<1, 256>>>(x, n);
	cudaDeviceSynchronize();
	cudaFree(x);
	printf("done\n");
	return 0;
}
CU
g add . && g commit -qm v1 && g tag v1 || exit 2
g checkout -qb port

# the port, its kernels checked: specs drafted, a bundle run here, its
# results taken as passes (this machine has no GPU), imported
check "apply" 0 hp apply k2.cu --target-hip=6.4
check "draft specs" 0 hp check --draft-spec k2.cu
check "bundle" 0 hp check --bundle "$tmp/b" k2.cu
check "run.sh" 0 sh "$tmp/b/run.sh"
truth "results as passes" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    c["status"], c["message"] = "pass", "compared 256 values"
json.dump(d, open(sys.argv[1], "w"))
' "$tmp/b/results.json"
# exit 1: the record run, without a GPU here, ended in errors
check "import" 1 hp check --import "$tmp/b/results.json"
truth "each check knows its kernel and its scope" python3 -c '
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
spec = {c["name"]: c for c in checks}
assert spec["k2.scale"]["kernel"] == "scale" and len(spec["k2.scale"]["scope"]) == 40, spec
assert spec["k2.shift"]["kernel"] == "shift" and spec["k2.shift"]["scope"] != spec["k2.scale"]["scope"], spec
# the launches of a record run come from the host code of the program: held to the whole file
assert "scope" not in spec["record.scale"], spec
' "$repo/.git/hipport/session.json"
check "status before" 0 hp status k2.cu --target-hip=6.4
expect "both pass" "$tmp/out" "2 checks pass"
g add .hipport && g commit -qm "kernel check specs" || exit 2
check "commit the port" 0 hp commit --force -m "Port to HIP" --target-hip=6.4

# upstream changes shift's body only (in a clone: the port's tree stays as it is)
upstream() { # upstream TAG SED: a commit of upstream's, pushed to the repository's main
	git -C "$tmp/up" pull -q origin main && sed -i "$2" "$tmp/up/k2.cu" && git -C "$tmp/up" commit -qam "$1" &&
		git -C "$tmp/up" tag "$1" && git -C "$tmp/up" push -q origin main "$1"
}
git clone -q -b main "$repo" "$tmp/up" || exit 2
upstream v2 's/x\[i\] += 1.0f;/x[i] += 3.0f;/' || exit 2
check "sync" 0 hp sync --from v1 --to v2 --target-hip=6.4
expect "merged" "$tmp/out" "merged    k2.cu"
check "status after the sync" 0 hp status k2.cu --target-hip=6.4
expect "scale's check stands" "$tmp/out" "1 checks pass"
expect "shift's check and the record run's are to run again" "$tmp/out" "3 checks of an earlier content"
check "status as JSON" 0 hp status k2.cu --target-hip=6.4 --format json
truth "JSON counts" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
assert f["checks"]["pass"] == 1 and f["checks"]["stale"] == 3, f
' "$tmp/out"

# the next check runs again what no longer holds, and nothing else
check "bundle what is stale" 0 hp check bundle "$tmp/b2" --stale
expect "one of two" "$tmp/out" "1 of 2 kernel checks to run again"
truth "shift's check in it, not scale's" sh -c "grep -q '^k2.shift' '$tmp/b2/checks.list' && ! grep -q '^k2.scale' '$tmp/b2/checks.list'"

# no spec check stale: said; the program's record run, which the sync left
# to record again, is the bundle
rm -f "$repo/.hipport/checks/k2.shift.check"
check "bundle what is stale, when no spec check is" 0 hp check bundle "$tmp/b4" --stale
expect "nothing to run again" "$tmp/out" "0 of 1 kernel check to run again"
expect "the record run" "$tmp/out" "bundle of 0 kernel checks and 1 program to record"
git -C "$repo" checkout -q -- .hipport/checks/k2.shift.check

# a spec whose source a sync removed is left out of the next bundle, said
sed 's/^\tsource = k2.cu$/\tsource = gone.cu/' "$repo/.hipport/checks/k2.shift.check" >"$repo/.hipport/checks/gone.shift.check"
check "bundle with a spec of a removed file" 0 hp check bundle "$tmp/b3"
expect "its spec said" "$tmp/err" "check gone.shift: its source gone.cu is gone: left out"
truth "and left out" sh -c "! grep -q '^gone.shift' '$tmp/b3/checks.list'"

finish
