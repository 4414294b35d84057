#!/bin/sh
# hipport check (compile step) and hipport commit: only reviewed files whose
# checks passed on their current content are committed, through libgit2.
# Needs hipcc for the compile checks (exit 77: skipped without it).
# usage: test-commit.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
command -v hipcc >/dev/null 2>&1 || { echo "no hipcc: skipped"; exit 77; }
hip=${HIPPORT_TEST_HIP:-5.2}
arch=${HIPPORT_TEST_ARCH:-gfx90a}

# a fresh repository with two CUDA files
repo="$tmp/repo"
mkdir -p "$repo" && cd "$repo" || exit 2
git init -q -b main . && git config user.name Engineer && git config user.email eng@example.com || exit 2
cat >a.cu <<'CU'
#include <cuda_runtime.h>
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
void run(float *x, int n) {
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaMemcpy(x, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
CU
sed 's/scale/twice/g' a.cu >b.cu
git add -A && git commit -q -m init || exit 2
first=$(git rev-parse HEAD)
cp b.cu "$tmp/b.orig"

# apply, check, commit: one commit with the port of a.cu, b.cu untouched in it
check "apply a.cu" 0 "$hipport" apply --target-hip="$hip" a.cu
check "check a.cu" 0 "$hipport" check --offload-arch="$arch" a.cu
expect "compile line" "$tmp/out" "$arch  pass"
check "commit" 0 "$hipport" commit --target-hip="$hip" -m "Port a.cu to HIP"
truth "one new commit" test "$(git rev-parse HEAD~1)" = "$first"
truth "a.cu ported in the commit" sh -c "git show HEAD:a.cu | grep -q hipMalloc"
truth "b.cu unchanged in the commit" sh -c "git show HEAD:b.cu | cmp -s - '$tmp/b.orig'"
truth "only a.cu in the commit" test "$(git diff --name-only HEAD~1 HEAD)" = "a.cu"
git log -1 --format=%B >"$tmp/message"
expect "summary" "$tmp/message" "Port a.cu to HIP"
expect "rules line" "$tmp/message" "rules: "
expect "checks line" "$tmp/message" "checks: compile for $arch pass"
expect "trailer Validated-on" "$tmp/message" "Validated-on: $arch"
expect "trailer Ported-by" "$tmp/message" "Ported-by: hipport "
expect "trailer Target-HIP" "$tmp/message" "Target-HIP: $hip"
truth "no Target-Torch without PyTorch files" sh -c "! grep -q Target-Torch \"$tmp/message\""
truth "reflog entry" sh -c "git reflog -1 --format=%gs | grep -q '^commit: Port a.cu to HIP'"
check "status after commit" 0 "$hipport" status --format json --target-hip="$hip" a.cu
truth "status: committed" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["files"][0]
assert f["state"] == "committed", f
' "$tmp/out"
check "nothing left to commit" 1 "$hipport" commit --target-hip="$hip"
expect "nothing to commit" "$tmp/err" "nothing to commit"

# b.cu applied but never checked: refused, HEAD unchanged, the reason named
second=$(git rev-parse HEAD)
check "apply b.cu" 0 "$hipport" apply --target-hip="$hip" b.cu
check "commit unchecked" 1 "$hipport" commit --target-hip="$hip"
expect "refusal names the file" "$tmp/err" "b.cu: no compile check of its current content"
expect "refusal says nothing committed" "$tmp/err" "nothing committed"
truth "HEAD unchanged" test "$(git rev-parse HEAD)" = "$second"

# checked, then edited outside hipport: the check no longer counts
check "check b.cu" 0 "$hipport" check --offload-arch="$arch" b.cu
printf '// later\n' >>b.cu
check "commit after an edit" 1 "$hipport" commit --target-hip="$hip" b.cu
expect "stale named" "$tmp/err" "b.cu: changed outside hipport"
truth "HEAD unchanged after the edit" test "$(git rev-parse HEAD)" = "$second"
sed -i '$d' b.cu # back to what hipport wrote: the check counts again
check "commit b.cu" 0 "$hipport" commit --target-hip="$hip" b.cu

# a port that does not build: a hunk edited into something broken in the
# review; its compile check fails, commit refuses, --force commits and says so
sed 's/scale/thrice/g' "$tmp/b.orig" >c.cu && sed 's/scale/fourfold/g' "$tmp/b.orig" >d.cu
sed -i 's/twice/thrice/g' c.cu && sed -i 's/twice/fourfold/g' d.cu
git add c.cu d.cu && git commit -q -m "two more" || exit 2
printf '#!/bin/sh\necho "int broken = undeclared_name;" >>"$1"\n' >"$tmp/editor" && chmod +x "$tmp/editor"
printf 'Enter e A\n' >"$tmp/edit.script"
EDITOR="$tmp/editor" VISUAL= "$hipport" review --script "$tmp/edit.script" --target-hip="$hip" c.cu >/dev/null 2>&1
truth "the edit is in c.cu" grep -q undeclared_name c.cu
check "check a broken port" 1 "$hipport" check --offload-arch="$arch" c.cu
expect "compile failure shown" "$tmp/out" "undeclared_name"
third=$(git rev-parse HEAD)
check "commit a failing file" 1 "$hipport" commit --target-hip="$hip" c.cu
expect "failure named" "$tmp/err" "the compile check for $arch failed"
truth "HEAD unchanged after a failing check" test "$(git rev-parse HEAD)" = "$third"
check "commit --force" 0 "$hipport" commit --target-hip="$hip" --force c.cu
git log -1 --format=%B >"$tmp/forced"
expect "forced trailer" "$tmp/forced" "Validated-on: none (forced)"
expect "forced reason" "$tmp/forced" "not validated (committed with --force"
expect "hand edit counted" "$tmp/forced" "by hand: 1 hunk edited"

# --branch: a new branch from HEAD, checked out
check "apply d.cu" 0 "$hipport" apply --target-hip="$hip" d.cu
check "check d.cu" 0 "$hipport" check --offload-arch="$arch" d.cu
check "commit --branch" 0 "$hipport" commit --target-hip="$hip" --branch port/hip d.cu
truth "on the new branch" test "$(git rev-parse --abbrev-ref HEAD)" = "port/hip"
truth "main where it was" test "$(git rev-parse main)" = "$(git rev-parse HEAD~1)"

# check.flags reach hipcc: a file that builds only with its define
git checkout -q main 2>/dev/null
printf '#include <cuda_runtime.h>\n#ifndef PORT_FLAG\n#error needs PORT_FLAG\n#endif\n__global__ void k(float *x) { x[0] = 1.0f; }\n' >e.cu
git add e.cu && git commit -q -m e || exit 2
check "apply e.cu" 0 "$hipport" apply --target-hip="$hip" e.cu
check "e.cu without its flag" 1 "$hipport" check --offload-arch="$arch" e.cu
expect "the error shown" "$tmp/out" "needs PORT_FLAG"
mkdir -p .hipport && printf '[check]\n\tflags = -DPORT_FLAG=1\n' >.hipport/config
check "e.cu with check.flags" 0 "$hipport" check --offload-arch="$arch" e.cu

# a build file: validated by its review alone, no checks apply to it
printf 'cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_library(p a.cu)\ntarget_link_libraries(p CUDA::cudart)\n' >CMakeLists.txt
git add CMakeLists.txt && git commit -q -m cmake || exit 2
check "status lists the build file" 0 "$hipport" status --target-hip="$hip"
expect "build file in status" "$tmp/out" "CMakeLists.txt"
check "apply CMakeLists.txt" 0 "$hipport" apply --target-hip="$hip" CMakeLists.txt
check "commit CMakeLists.txt" 0 "$hipport" commit --target-hip="$hip" -m "Port the build to HIP" CMakeLists.txt
truth "only CMakeLists.txt committed" test "$(git diff --name-only HEAD~1 HEAD)" = "CMakeLists.txt"
truth "HIP language committed" sh -c "git show HEAD:CMakeLists.txt | grep -q 'LANGUAGES CXX HIP'"
git log -1 --format=%B >"$tmp/message"
expect "build file: no checks apply" "$tmp/message" "checks: none apply"

# bad input: -m over lines, outside a repository
check "bad -m" 2 "$hipport" commit -m "$(printf 'a\nb')"
plain=$(mktemp -d "${TMPDIR:-/tmp}/hipport-plain.XXXXXX") || exit 2
cp "$repo/a.cu" "$plain/"
check "outside a repository" 2 "$hipport" -C "$plain" commit
rm -rf "$plain"

finish
