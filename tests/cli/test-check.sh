#!/bin/sh
# hipport check: spec drafts, bundles and their run.sh on this machine (no
# GPU: every check must end no-device, or skipped without compilers, and
# never pass), --import, the session's record, bad input.
# usage: test-check.sh HIPPORT SOURCE_DIR TMP_DIR
hipport=$1
src=$2
tmp=$3
rm -rf "$tmp" && mkdir -p "$tmp" || exit 2
. "$src/tests/cli/lib.sh"
. "$src/tests/cli/make-fixture.sh"
repo="$tmp/repo"
make_fixture "$repo" "$src/share/examples/fastops" || { echo "cannot make the fixture"; exit 2; }

# --- drafts: a fresh copy of the example without its specs ---------------
draft="$tmp/draft"
cp -r "$src/share/examples/fastops" "$draft" && rm -rf "$draft/.hipport" &&
	(cd "$draft" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "draft fp16 kernels" 0 "$hipport" -C "$draft" check --draft-spec src/scaled_add.cu
spec="$draft/.hipport/checks/src-scaled_add.scaled_add_kernel.check"
expect "draft names the spec" "$tmp/out" "src-scaled_add.scaled_add_kernel.check: drafted for fastops::scaled_add_kernel"
truth "half2 kernel drafted too" test -f "$draft/.hipport/checks/src-scaled_add.scaled_add_half2_kernel.check"
expect "draft: source" "$spec" "source = src/scaled_add.cu"
expect "draft: kernel through its namespace" "$spec" "kernel = fastops::scaled_add_kernel"
expect "draft: parameters in order" "$spec" "args = x y out scale n"
# drafted from the launch in the file's host wrapper: its grid, and its
# parameters and run-time values marked as guessed
expect "draft: the launch" "$spec" "launch = src/scaled_add.cu:77"
expect "draft: grid as launched, over the number parameter n" "$spec" "grid = ((int)(fastops::grid_size(((int64_t)(n_host - done)), fastops::kBlock)))"
expect "draft: block as launched" "$spec" "block = fastops::kBlock"
expect "draft: guessed names" "$spec" "guessed = x y out n done scale"
# done = 2 * n2 in a branch before the launch: no value known there
expect "draft: why done is guessed" "$spec" "done: drafted 64, not known from the program: int64_t done = 0 (line 59)"
expect "draft: seed" "$spec" "seed = 1234"
truth "draft: x is a uniform fp16 input" python3 - "$spec" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
def section(name):
    m = re.search(r'\[arg "%s"\]\n((?:\t.*\n)*)' % name, text)
    return dict(l.strip().split(" = ", 1) for l in m.group(1).splitlines())
x, out, n, scale = section("x"), section("out"), section("n"), section("scale")
assert x == {"role": "in", "type": "__half", "count": "n_host", "init": "uniform -1 1"}, x
assert out["role"] == "out" and out["type"] == "__half" and out["init"] == "constant 0", out
assert float(out["abs"]) == 0.01 and float(out["rel"]) == 0.01, out  # fp16: looser than fp32
assert n == {"role": "scalar", "type": "int64_t", "value": "((int64_t)(n_host - done))"}, n
assert scale["type"] == "float", scale
assert "# Check before use" in text
PY
check "draft again keeps the edited spec" 0 "$hipport" -C "$draft" check --draft-spec src/scaled_add.cu
expect "kept" "$tmp/out" "kept (exists"
check "draft of a file without kernels" 0 "$hipport" -C "$draft" check --draft-spec src/main.cu
expect "no kernels said" "$tmp/err" "src/main.cu: no __global__ function"
check "draft needs files" 2 "$hipport" -C "$draft" check --draft-spec
check "draft of a missing file" 2 "$hipport" -C "$draft" check --draft-spec src/nope.cu

# --- a declaration the parse cannot read without the program's headers
# (std::enable_if<...> names no template to it) took every kernel after it
# (BBuf's fast_atomic_add_half.cu drafted none); a kernel still not read is
# the drafter's failure, not the file's
sfinae="$tmp/sfinae"
mkdir -p "$sfinae" && cat >"$sfinae/atomic.cu" <<'EOF' && cat >"$sfinae/unread.cu" <<'EOF' &&
#include <type_traits>
template<typename T, typename std::enable_if<std::is_same<float, T>::value>::type* = nullptr>
__device__ void f(T* b, T v) { *b += v; }

__global__ void dot(float* a, int n) { if (threadIdx.x < n) f(a, 1.0f); }
int main() { return 0; }
EOF
template<typename T>
__global__ typename std::enable_if<std::is_same<float, T>::value>::type zero(T* a) { a[0] = 0; }
EOF
	(cd "$sfinae" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "draft after a template the parse cannot read" 0 "$hipport" -C "$sfinae" check draft atomic.cu
expect "the kernel after it drafted" "$tmp/out" "atomic.dot.check: drafted for dot in atomic.cu"
check "a kernel the drafter cannot read is its failure" 1 "$hipport" -C "$sfinae" check draft unread.cu
expect "the failure names the file" "$tmp/err" "unread.cu: the drafter read no kernel where the file spells __global__"
# a host function of a PyTorch extension (pytorch_cluster's graclus) whose
# parameter the parse cannot read without torch's headers took the kernels
# after it: they are drafted from the file without its host functions, and
# none is left unsaid
cat >"$sfinae/graclus.cu" <<'EOF'
#define THREADS 1024
__global__ void propose_kernel(long *out, const long *proposal, long numel) {
  const long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numel) out[i] = proposal[i];
}
void propose(torch::Tensor out, torch::optional<torch::Tensor> optional_weight) {
  propose_kernel<<<(out.numel() + THREADS - 1) / THREADS, THREADS>>>(out.data_ptr<long>(), out.data_ptr<long>(), out.numel());
}
__global__ void respond_kernel(long *out, const long *proposal, long numel) {
  const long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numel) out[i] = -proposal[i];
}
EOF
(cd "$sfinae" && git add -A && git -c user.name=t -c user.email=t@t commit -qm graclus) || exit 2
check "draft after a host function the parse cannot read" 0 "$hipport" -C "$sfinae" check draft graclus.cu
expect "the kernel before it drafted" "$tmp/out" "graclus.propose_kernel.check: drafted for propose_kernel in graclus.cu"
expect "the kernel after it drafted" "$tmp/out" "graclus.respond_kernel.check: drafted for respond_kernel in graclus.cu"
expect "and said how" "$sfinae/.hipport/checks/graclus.respond_kernel.check" "# The parse of the whole file did not reach this kernel"
# a book's host function taking a std::vector<real>& before every kernel of
# its file (the parse has no standard headers): none read at first, all
# drafted again from the file without its host functions
cat >"$sfinae/neighbor.cu" <<'EOF'
#include <vector>
void read_xy(std::vector<float> &x, std::vector<float> &y) { }
__global__ void find_neighbor(int *nn, const float *x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) nn[i] = x[i] > 0;
}
EOF
(cd "$sfinae" && git add -A && git -c user.name=t -c user.email=t@t commit -qm neighbor) || exit 2
check "draft when no kernel was read at first" 0 "$hipport" -C "$sfinae" check draft neighbor.cu
expect "the kernel drafted" "$tmp/out" "neighbor.find_neighbor.check: drafted for find_neighbor in neighbor.cu"
# an output of a type the compiler names (dtype auto) summed with atomics:
# its widened tolerance is whole, ulp included, and the bundle takes it
cat >"$sfinae/jaccard.cu" <<'EOF'
template <typename T>
__global__ void is_opt(const T *v, T *weight_i, int e) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < e) atomicAdd(&weight_i[i % 7], v[i]);
}
typedef float vtype;
void run(const vtype *v, vtype *w, int e) { is_opt<vtype><<<(e + 255) / 256, 256>>>(v, w, e); }
EOF
(cd "$sfinae" && git add -A && git -c user.name=t -c user.email=t@t commit -qm jaccard) || exit 2
check "draft an auto-typed atomic output" 0 "$hipport" -C "$sfinae" check draft jaccard.cu
truth "its ulp is not negative" sh -c "! grep -q 'ulp = -' '$sfinae/.hipport/checks/jaccard.is_opt.check'"
check "the bundle takes it" 0 "$hipport" -C "$sfinae" check bundle "$tmp/jaccard-bundle" jaccard.cu
# upstream changed a kernel's parameters: its kept spec no longer builds, said
sed -i 's/__global__ void respond_kernel(long \*out, const long \*proposal, long numel)/__global__ void respond_kernel(long *out, const long *proposal, long numel, long shift)/' "$sfinae/graclus.cu"
check "draft again after the parameters changed" 0 "$hipport" -C "$sfinae" check draft graclus.cu
expect "the changed parameters said" "$tmp/out" "graclus.respond_kernel.check: kept, but respond_kernel's parameters are now out proposal numel shift, the spec's out proposal numel: remove it to draft it again"
expect "the others kept as before" "$tmp/out" "graclus.propose_kernel.check: kept (exists; remove it to draft it again)"

# --- drafts from launch sites: two programs, each a main.cu ---------------
progs="$tmp/progs"
mkdir -p "$progs" && cp -r "$src/tests/check/launch/softmax" "$src/tests/check/launch/other" \
	"$src/tests/check/launch/torchlike" "$src/tests/check/launch/chain" "$progs" &&
	(cd "$progs" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "draft from launches" 0 "$hipport" -C "$progs" check --draft-spec softmax/main.cu other/main.cu
checks="$progs/.hipport/checks"
for name in softmax-main.softMax softmax-main.largeNetKernel.24-64 softmax-main.largeNetKernel.8-32 other-main.softMax; do
	truth "spec $name" test -f "$checks/$name.check"
done
truth "launch specs read back" python3 - "$checks" <<'PY'
import os, re, sys
def spec(name):
    text = open(os.path.join(sys.argv[1], name + ".check")).read()
    out = {}
    for m in re.finditer(r'^\[(\w+)(?: "([^"]*)")?\]\n((?:\t.*\n)*)', text, re.M):
        out[(m.group(1), m.group(2))] = dict(l.strip().split(" = ", 1) for l in m.group(3).splitlines())
    return out, text
s, text = spec("softmax-main.largeNetKernel.24-64")
c = s[("check", None)]
assert c["template"] == "24, 64" and c["block"] == "24 * WS" and c["launch"] == "softmax/main.cu:50", c
assert c["grid"] == "((int)(((1 << 16) + 24 * WS - 1) / (24 * WS)))", c
# typedef int ctype: int data, sized by the cudaMalloc / cudaMallocManaged calls
assert s[("arg", "in")] == {"role": "in", "type": "int", "count": "(1 << 16)", "init": "uniform 0 16"}, s[("arg", "in")]
assert s[("arg", "out")]["type"] == "int" and s[("arg", "out")]["count"] == "(1 << 16)", s[("arg", "out")]
assert s[("arg", "n")]["value"] == "(1 << 16)", s[("arg", "n")]
# the __device__ counter it increments is an output
assert s[("global", "d_count")]["role"] == "inout" and s[("global", "d_count")]["count"] == "1", s
assert "guessed" not in c, c
s8, _ = spec("softmax-main.largeNetKernel.8-32")
assert s8[("check", None)]["template"] == "8, 32" and s8[("check", None)]["block"] == "8 * WS", s8
s, text = spec("softmax-main.softMax")
c = s[("check", None)]
# numSlice comes from argv: guessed, said why, and the rest computed from it
assert c["guessed"] == "numSlice", c
# divided into blocks: enough of it to fill several
assert "numSlice: drafted 4096, not known from the program: const int numSlice = atoi(argv[1]) (line 33)" in text
assert s[("var", "numSlice_host")] == {"type": "int", "value": "4096"}, s
assert c["grid"] == "dim3((numSlice_host + BLOCK - 1) / BLOCK)" and c["block"] == "dim3(BLOCK)", c
assert s[("arg", "src")]["count"] == "((int)(numSlice_host * 64))", s[("arg", "src")]
assert s[("arg", "dest")]["count"] == "((int)(numSlice_host * 64))", s[("arg", "dest")]
assert s[("arg", "sliceSize")]["value"] == "64", s
assert s[("global", "d_hist")] ["role"] == "out" and s[("global", "d_hist")]["count"] == "16", s
s, text = spec("other-main.softMax")
c = s[("check", None)]
assert c["source"] == "other/main.cu" and c["grid"] == "(3000 + 127) / 128", c
assert s[("arg", "x")]["count"] == "3000" and s[("arg", "x")]["role"] == "inout", s[("arg", "x")]
# the loop's own variable: its first iteration's value, no guess
assert s[("arg", "step")]["value"] == "0" and "guessed" not in c, s
PY
check "draft a torch-style operator" 0 "$hipport" -C "$progs" check --draft-spec torchlike/op.cu
truth "torch-style: values from the signature and t.numel()" python3 - "$checks/torchlike-op.scale_kernel.check" <<'PY'
import sys
text = open(sys.argv[1]).read()
for line in ("grid = (((int)(a_contig_numel)) + 255) / 256", "guessed = a result a_contig_numel c", "[var \"c_host\"]",
             "c: drafted 0.7, not known from the program: double c (line 12, a parameter)"):
    assert line in text, (line, text)
PY
check "draft through the callers' template arguments" 0 "$hipport" -C "$progs" check --draft-spec chain/main.cu
truth "chain: N from run<512>, the count large enough for a block" python3 - "$checks/chain-main.scan.check" <<'PY'
import sys
text = open(sys.argv[1]).read()
for line in ("template = float, 512", "block = 512", "N: is 512", "grid = ((long)((n + 512 - 1) / 512))", "[var \"n\"]"):
    assert line in text, (line, text)
text = open(sys.argv[1].replace("scan", "negate")).read()
for line in ("type = float", "count = (1000 * sizeof(float2)) / sizeof(float)"):
    assert line in text, (line, text)
PY
check "draft from launches again" 0 "$hipport" -C "$progs" check --draft-spec softmax/main.cu other/main.cu
expect "launch specs kept" "$tmp/out" "other-main.softMax.check: kept"

# --- a program and its port draft the same specs: kernels and launches in
# extern "C", buffers sized by cudaMalloc and by hipMalloc, cooperative groups
ported="$tmp/ported"
mkdir -p "$ported/cuda" "$ported/hip" && cp "$src/tests/data/check-draft-port/main.cu" "$ported/cuda/" &&
	(cd "$ported" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "translate the program" 0 "$hipport" translate "$ported/cuda/main.cu" -o "$ported/hip/main.cu"
truth "the port allocates with HIP" grep -q "hipMalloc((void \*\*)&x" "$ported/hip/main.cu"
check "draft the program and its port" 0 "$hipport" -C "$ported" check draft cuda/main.cu hip/main.cu
truth "the port's specs are the program's" python3 - "$ported/.hipport/checks" <<'PY'
import os, re, sys
def spec(name):
    text = open(os.path.join(sys.argv[1], name + ".check")).read()
    out = {}
    for m in re.finditer(r'^\[(\w+)(?: "([^"]*)")?\]\n((?:\t.*\n)*)', text, re.M):
        out[(m.group(1), m.group(2))] = dict(l.strip().split(" = ", 1) for l in m.group(3).splitlines())
    return out
for kernel in ("scale", "partial_sums"):
    orig, port = spec("cuda-main." + kernel), spec("hip-main." + kernel)
    c = orig[("check", None)]
    # the launch in the extern "C" wrapper, nothing guessed
    assert c["block"] == "THREADS" and c["grid"] == "N / THREADS" and "guessed" not in c, c
    for side in (orig, port):
        del side[("check", None)]["source"], side[("check", None)]["launch"]
    assert orig == port, (kernel, orig, port)
s = spec("cuda-main.partial_sums")
assert s[("arg", "x")]["count"] == "N" and s[("arg", "idx")]["count"] == "N", s
assert s[("arg", "sums")]["count"] == "N / 32", s
PY

# --- record-and-compare: instrumented trees in the bundle, logs compared ---
(cd "$progs" && git add -A && git -c user.name=t -c user.email=t@t commit -qm specs) || exit 2
check "bundle with record trees" 0 "$hipport" -C "$progs" check --bundle "$tmp/rbundle"
for f in record.sh record/hipport_record.h record/orig/softmax/main.cu record/port/other/main.cu; do
	truth "record bundle has $f" test -f "$tmp/rbundle/$f"
done
expect "original launch instrumented" "$tmp/rbundle/record/orig/softmax/main.cu" \
	'HIPPORT_RECORD_LAUNCH("largeNetKernel", "softmax/main.cu:50", largeNetKernel<24, 64>, blocks2, 24 * WS)(a, b, n);'
expect "port launch instrumented" "$tmp/rbundle/record/port/other/main.cu" \
	'HIPPORT_RECORD_LAUNCH("softMax", "other/main.cu:21", softMax, (n + 127) / 128, 128)(d, n, step);'
expect "record header first" "$tmp/rbundle/record/port/other/main.cu" '#include "../../hipport_record.h"'
truth "lines kept" sh -c "sed -n 2p '$tmp/rbundle/record/orig/other/main.cu' | grep -qx '#line 1'"
truth "only launches change" sh -c "sed '1,2d' '$tmp/rbundle/record/orig/other/main.cu' | sed 's/HIPPORT_RECORD_LAUNCH(\"softMax\", \"other\/main.cu:21\", softMax, \(.*\))(d/softMax<<<\1>>>(d/' | cmp - '$progs/other/main.cu'"
mkdir -p "$tmp/rec/ref" "$tmp/rec/port"
printf 'launch 0 k a.cu:3 grid 1 1 1 block 1 1 1 shared 0 status 0 0\narg 0 pointer i32 0 4 0000000000000001 0000000000000002 -\n' \
	>"$tmp/rec/ref/launches.log"
cp "$tmp/rec/ref/launches.log" "$tmp/rec/port/launches.log"
check "compare: same" 0 "$hipport" check --compare "$tmp/rec/ref" "$tmp/rec/port"
expect "compare: pass" "$tmp/out" "k                                pass"
expect "compare: no divergence" "$tmp/out" "no kernel's outputs diverged from identical inputs"
sed -i 's/0000000000000002 -/0000000000000003 -/' "$tmp/rec/port/launches.log"
check "compare: differs" 1 "$hipport" check --compare "$tmp/rec/ref" "$tmp/rec/port"
expect "compare: names the kernel" "$tmp/out" "first divergence: k (a.cu:3), its launch 0"
check "compare: a log that does not read" 2 "$hipport" check --compare "$tmp/rec/ref" "$tmp/nowhere"
expect "compare: the file named" "$tmp/err" "nowhere/launches.log"
check "compare needs two runs" 2 "$hipport" check --compare "$tmp/rec/ref"
# a bundle's record run, compared inside the repository: recorded in the session
runs="$tmp/rbundle/work/record/other"
mkdir -p "$runs/ref" "$runs/port"
sed 's|a.cu:3|other/main.cu:21|; s/ k / softMax /' "$tmp/rec/ref/launches.log" >"$runs/ref/launches.log"
sed 's|a.cu:3|other/main.cu:21|; s/ k / softMax /' "$tmp/rec/port/launches.log" >"$runs/port/launches.log"
echo nvidia-proxy >"$runs/port/platform"
check "compare: a bundle's run" 1 "$hipport" -C "$progs" check --compare "$runs/ref" "$runs/port"
expect "compare: recorded" "$tmp/out" "recorded 1 record-and-compare result in the review session"
# [record "DIR"] in the configuration: records.list in the bundle; --import
# compares the runs the bundle holds
printf '[record "other"]\n\tbuild = $HIPPORT_CXX -o main main.cu\n\trun = ./main\n' >"$progs/.hipport/config"
check "bundle with a record entry" 0 "$hipport" -C "$progs" check --bundle "$tmp/rbundle2"
truth "records.list" test "$(cat "$tmp/rbundle2/records.list")" = "$(printf 'other\t$HIPPORT_CXX -o main main.cu\t./main\tconfig')"
mkdir -p "$tmp/rbundle2/work/record" && cp -r "$runs" "$tmp/rbundle2/work/record/"
printf '{"schema": "hipport-check-results", "version": 1, "bundle": "x", "port_platform": "nvidia-proxy", "checks": []}\n' \
	>"$tmp/rbundle2/results.json"
check "import compares the record runs" 1 "$hipport" -C "$progs" check --import "$tmp/rbundle2/results.json"
expect "import: the run named" "$tmp/out" "record and compare: other"
expect "import: its divergence" "$tmp/out" "first divergence: softMax (other/main.cu:21)"
# an original that did not build: the reference's fault, said, no usage error
mv "$tmp/rbundle2/work/record/other/ref" "$tmp/rbundle2/ref-kept"
check "import: the original recorded nothing" 1 "$hipport" -C "$progs" check --import "$tmp/rbundle2/results.json"
expect "import: the reference's fault" "$tmp/out" "record and compare: other: the original recorded no launch"
mv "$tmp/rbundle2/ref-kept" "$tmp/rbundle2/work/record/other/ref"
printf '[record "other"]\n\tbuild = make\n' >"$progs/.hipport/config"
check "a record entry without run" 2 "$hipport" -C "$progs" check --bundle "$tmp/rbundle3"
expect "said so" "$tmp/err" '[record "other"] needs both build and run'
rm -f "$progs/.hipport/config"
# without [record] sections: a program directory whose Makefile has a run target
printf 'main: main.cu\n\t$(CC) -o main main.cu\nrun: main\n\t./main\n' >"$progs/other/Makefile"
(cd "$progs" && git add other/Makefile && git -c user.name=t -c user.email=t@t commit -qm make) || exit 2
check "bundle with a Makefile's run target" 0 "$hipport" -C "$progs" check --bundle "$tmp/rbundle4"
truth "records.list from the Makefile" test "$(grep '^other' "$tmp/rbundle4/records.list")" = \
	"$(printf 'other\tmake CC="$HIPPORT_CXX" NVCC="$HIPPORT_CXX"\tmake run\tMakefile run target')"
# the directories no build file governs: their sources with main() built alone
truth "records.list: the single sources" test "$(grep -v '^other' "$tmp/rbundle4/records.list" | cut -f 1,4)" = \
	"$(printf 'chain\ta source with main(), no build file\nsoftmax\ta source with main(), no build file')"
expect "the record's origin said" "$tmp/out" 'record other: build `make CC="$HIPPORT_CXX" NVCC="$HIPPORT_CXX"`, run `make run` (from Makefile run target)'
truth "the Makefile in both record trees" cmp "$tmp/rbundle4/record/orig/other/Makefile" "$tmp/rbundle4/record/port/other/Makefile"
# a recorded program's tracked inputs travel with it, its build outputs do not;
# a template kernel launched without template arguments is recorded through a
# generic lambda that keeps the launch as written
printf 'n 3\n' >"$progs/other/input.txt"
printf 'ELF' >"$progs/other/main"
# and so is a kernel whose host launcher has its name (llm.c's), the overload chosen as written
printf 'template <typename T> __global__ void fill(T *p, T v, int n) { p[threadIdx.x] = v; }\nvoid go(float *d) { fill<<<1, 32>>>(d, 1.5f, 32); }\n__global__ void twice(float *p) { p[threadIdx.x] *= 2; }\nvoid twice(float *d, int n) { twice<<<1, n>>>(d); }\n__global__ void once(float *p) { p[0] = 1; }\nvoid run(float *d) { once<<<1, 1>>>(d); }\n__global__ void part(float *p, int n = 4) { p[0] = n; }\nvoid some(float *d) { part<<<1, 1>>>(d); }\nvoid any(float *d) { void (*k)(float *) = once; k<<<1, 1>>>(d); }\nvoid call(float *d) { void *a[] = { &d }; cudaLaunchCooperativeKernel((void *)once, 1, 1, a, 0, 0); }\n' \
	>"$progs/other/fill.cu"
# a template launched with some of its arguments, the rest deduced (NVIDIA's
# american-options: generate_paths_kernel<NUM_THREADS>(..., payoff)), and one given all
printf 'template <int N, typename F> __global__ void paths(float *p, F f) { p[0] = f(N); }\nstruct Half { __device__ float operator()(int n) const { return n * 0.5f; } };\nvoid price(float *d) { paths<4><<<1, 1>>>(d, Half()); }\ntemplate <int N, typename T = float> __global__ void full(T *p) { p[0] = N; }\nvoid fill8(float *d) { full<8><<<1, 1>>>(d); }\nvoid table(float *d, int k) { void (*ks[2])(float *) = { once, once }; ks[k]<<<1, 1>>>(d); }\n' \
	>>"$progs/other/fill.cu"
(cd "$progs" && git add other/input.txt other/fill.cu && git -c user.name=t -c user.email=t@t commit -qm input) || exit 2
check "bundle with a program's inputs" 0 "$hipport" -C "$progs" check --bundle "$tmp/rbundle5"
truth "the input in both record trees" cmp "$tmp/rbundle5/record/port/other/input.txt" "$progs/other/input.txt"
truth "the input in the original's tree" test -f "$tmp/rbundle5/record/orig/other/input.txt"
truth "no build output" test ! -e "$tmp/rbundle5/record/orig/other/main"
expect "deduced template arguments" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_DEDUCED("fill", "other/fill.cu:2", [&](auto &&...hipport_arg) { fill<<<1, 32>>>(hipport_arg...); }, 1, 32)(d, 1.5f, 32);'
expect "an overloaded kernel name" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_DEDUCED("twice", "other/fill.cu:4", [&](auto &&...hipport_arg) { twice<<<1, n>>>(hipport_arg...); }, 1, n)(d);'
expect "a kernel of its own name typed" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH("once", "other/fill.cu:6", once, 1, 1)(d);'
expect "a launch leaving defaults" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_DEDUCED("part", "other/fill.cu:8", [&](auto &&...hipport_arg) { part<<<1, 1>>>(hipport_arg...); }, 1, 1)(d);'
expect "a launch through the runtime's call" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_CALL("once", "other/fill.cu:10", once, 1, 1, a, 0, [&] { return cudaLaunchCooperativeKernel((void *)once, 1, 1, a, 0, 0); });'
expect "a launch through a function pointer" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'void (*k)(float *) = once; HIPPORT_RECORD_LAUNCH_POINTER("other/fill.cu:9", k, 1, 1)(d);'
expect "template arguments given in part" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_DEDUCED("paths", "other/fill.cu:13", [&](auto &&...hipport_arg) { paths<4><<<1, 1>>>(hipport_arg...); }, 1, 1)(d, Half());'
expect "template arguments given in full, with a default" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH("full", "other/fill.cu:15", full<8>, 1, 1)(d);'
expect "a launch through a table of pointers" "$tmp/rbundle5/record/orig/other/fill.cu" \
	'HIPPORT_RECORD_LAUNCH_POINTER("other/fill.cu:16", ks[k], 1, 1)(d);'
rm -f "$progs/other/main"
truth "compare: in the session" python3 - "$progs/.git/hipport/session.json" "$(git -C "$progs" hash-object other/main.cu)" <<'PY'
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
c = [c for c in checks if c["name"] == "record.softMax"]
assert len(c) == 1 and c[0]["path"] == "other/main.cu" and c[0]["status"] == "fail", checks
assert c[0]["platform"] == "nvidia-proxy" and c[0]["port"] != sys.argv[2], c  # the port's blob, not the original's
PY

# --- bundles ---------------------------------------------------------------
bundle="$tmp/bundle"
check "bundle" 0 "$hipport" -C "$repo" check --bundle "$bundle" --fix=all src
expect "bundle said" "$tmp/out" "bundle of 8 kernel checks"
for f in run.sh bundle.conf checks.list README harness/hipport_harness.h harness/compare.c harness/compare.h \
	harness/scaled_add.scaled_add_kernel.cu specs/histogram.histogram_kernel.check \
	orig/src/scaled_add.cu port/src/scaled_add.cu orig/include/fastops/common.cuh port/include/fastops/common.cuh \
	proxy/include/hip_compat.h proxy/include/hip/hip_runtime.h; do
	truth "bundle has $f" test -f "$bundle/$f"
done
expect "port is ported" "$bundle/port/src/scaled_add.cu" "hip/hip_runtime.h"
expect "original is CUDA" "$bundle/orig/src/reduce_softmax.cu" "__shfl_down_sync(0xffffffff"
expect "proxy maps HIP names" "$bundle/proxy/include/hip_compat.h" "#define hipMalloc cudaMalloc"
expect "proxy maps warp intrinsics" "$bundle/proxy/include/hip_compat.h" "auto __shfl_down(A... a) -> decltype(__shfl_down_sync(__activemask(), a...))"
expect "harness renames main" "$bundle/harness/scaled_add.scaled_add_kernel.cu" "#define main hipport_user_main"
expect "harness checks the launch, timed" "$bundle/harness/scaled_add.scaled_add_kernel.cu" "hp_run([&]() { fastops::scaled_add_kernel<<<"
truth "bundle is small" test "$(du -sk --apparent-size "$bundle" | cut -f1)" -lt 700
truth "compare.c is hipport's" cmp -s "$bundle/harness/compare.c" "$src/src/check/kernel/compare.c"
mkdir -p "$tmp/occupied" && echo x >"$tmp/occupied/file"
check "bundle into a directory that is not one" 2 "$hipport" -C "$repo" check --bundle "$tmp/occupied"
expect "refused" "$tmp/err" "not empty and not a check bundle"

# run.sh here: no GPU, so nothing passes and it ends cleanly
all_quiet='
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "hipport-check-results" and doc["version"] == 1, doc
checks = doc["checks"]
assert len(checks) == int(sys.argv[2]), len(checks)
for c in checks:
    assert c["status"] in ("no-device", "skipped"), c
    assert c["platform"] in ("amd", "nvidia-proxy", "none"), c
    assert c["message"], c
    for key in ("name", "source", "kernel", "arch", "errors", "port_blob"):
        assert key in c, (key, c)
    if c["status"] == "no-device":
        assert "no GPU" in c["message"], c
'
check "sh run.sh" 0 sh "$bundle/run.sh"
expect "run.sh summary" "$tmp/out" "CHECK"
truth "results: no device, nothing passes" python3 -c "$all_quiet" "$bundle/results.json" 8
if command -v dash >/dev/null 2>&1; then
	small="$tmp/small"
	check "small bundle" 0 "$hipport" -C "$repo" check --bundle "$small" src/transpose.cu
	check "dash run.sh" 0 dash "$small/run.sh"
	truth "dash results" python3 -c "$all_quiet" "$small/results.json" 1
fi

# --- import ----------------------------------------------------------------
check "import" 0 "$hipport" -C "$repo" check --import "$bundle/results.json"
expect "import prints" "$tmp/out" "scaled_add.scaled_add_kernel:"
check "status shows checks" 0 "$hipport" -C "$repo" status src/transpose.cu --target-hip=5.2
truth "status counts them" grep -q "1 checks \(no-device\|skipped\)" "$tmp/out"
printf '{"schema": "hipport-check-results", "version": 1, "checks": [{"name": "a.k", "source": "a.cu", "status": "great", "platform": "amd", "port_blob": "0000000000000000000000000000000000000000"}]}' >"$tmp/bad.json"
check "import bad status" 2 "$hipport" -C "$repo" check --import "$tmp/bad.json"
expect "bad status named" "$tmp/err" "bad.json: check a.k: status 'great'"
printf '{"schema": "hipport-check-results", "checks": [' >"$tmp/broken.json"
check "import broken JSON" 2 "$hipport" -C "$repo" check --import "$tmp/broken.json"
expect "broken JSON named" "$tmp/err" "broken.json:1:"
check "import missing file" 2 "$hipport" -C "$repo" check --import "$tmp/none.json"
# results from elsewhere record only what the bundle beside them checked
cp "$bundle/results.json" "$bundle/results.json.orig"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r["checks"][0]["status"] = "pass"
r["checks"][1]["source"] = "../../../../etc/passwd"
json.dump(r, open(sys.argv[1], "w"))
' "$bundle/results.json"
check "import: source outside" 2 "$hipport" -C "$repo" check --import "$bundle/results.json"
expect "import: the entry named" "$tmp/err" "results.json: checks[1] ("
expect "import: the problem said" "$tmp/err" "): its source is not src/"
check "import: nothing recorded" 0 "$hipport" -C "$repo" status --format json
truth "import: no pass recorded" sh -c "! grep -q '\"pass\": [1-9]' '$tmp/out'"
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r["checks"][0]["name"] = "k" * 100000
json.dump(r, open(sys.argv[2], "w"))
' "$bundle/results.json.orig" "$bundle/results.json"
check "import: unknown name" 2 "$hipport" -C "$repo" check --import "$bundle/results.json"
expect "import: long name cut" "$tmp/err" "kkkkkkkkkk... (100000 characters)): no check of that name was bundled"
# without a bundle beside it: the repository's specs and work tree
mkdir -p "$tmp/alone" && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r["checks"][0]["source"] = "../" * 12 + "etc/passwd"
json.dump(r, open(sys.argv[2], "w"))
' "$bundle/results.json.orig" "$tmp/alone/results.json"
check "import alone: source outside" 2 "$hipport" -C "$repo" check --import "$tmp/alone/results.json"
expect "import alone: named" "$tmp/err" "alone/results.json: checks[0] ("
cp "$bundle/results.json.orig" "$tmp/alone/results.json"
check "import alone" 0 "$hipport" -C "$repo" check --import "$tmp/alone/results.json"
# a bundle whose own list was changed to point outside
cp -r "$bundle" "$tmp/evil" && python3 -c '
import json, sys
d = sys.argv[1]
lines = open(d + "/checks.list").read().splitlines(True)
f = lines[0].split("\t"); old = f[1]; f[1] = "../../../../../../etc/passwd"; lines[0] = "\t".join(f)
open(d + "/checks.list", "w").write("".join(lines))
r = json.load(open(d + "/results.json.orig"))
for c in r["checks"]:
    if c["name"] == f[0]: c["source"] = f[1]
json.dump(r, open(d + "/results.json", "w"))
' "$tmp/evil"
check "import: listed source outside" 2 "$hipport" -C "$repo" check --import "$tmp/evil/results.json"
expect "import: listed source refused" "$tmp/err" "its source ../../../../../../etc/passwd is no file of"
cp "$bundle/results.json.orig" "$bundle/results.json"

# --- golden outputs: recorded from a reference run, carried by later bundles --
check "record without reference outputs" 0 "$hipport" -C "$repo" check --import "$bundle/results.json" --record
expect "nothing to record said" "$tmp/out" "no reference outputs to record"
ref="$bundle/work/ref/scaled_add.scaled_add_kernel"
mkdir -p "$ref" && printf 'platform nvidia\narch sm_90\nseed 1234\noutput out f16 4099 0\n' >"$ref/meta.txt" &&
	printf 'xx' >"$ref/out.bin"
check "record" 0 "$hipport" -C "$repo" check --import "$bundle/results.json" --record
expect "recorded" "$tmp/out" "scaled_add.scaled_add_kernel: reference outputs recorded"
truth "golden outputs kept" cmp -s "$ref/out.bin" "$repo/.hipport/golden/scaled_add.scaled_add_kernel/out.bin"
check "bundle with golden outputs" 0 "$hipport" -C "$repo" check --bundle "$tmp/golden-bundle" src/scaled_add.cu
truth "bundle carries them" test -f "$tmp/golden-bundle/golden/scaled_add.scaled_add_kernel/meta.txt"
rm -rf "$repo/.hipport/golden"

# --- a local run, with the project's own tests -----------------------------
printf '[check]\n\tcommand = echo project tests ran\n' >"$repo/.hipport/config"
check "local check" 0 "$hipport" -C "$repo" check --fix=all src/scaled_add.cu
expect "local check: results" "$tmp/out" "scaled_add.scaled_add_kernel: "
expect "local check: check.command" "$tmp/out" "check.command: exit 0"
truth "local check: nothing passes" sh -c "! grep -q ': pass (' '$tmp/out'"
printf '[check]\n\tcommand = exit 3\n' >"$repo/.hipport/config"
check "failing check.command" 1 "$hipport" -C "$repo" check --fix=all src/transpose.cu
rm -f "$repo/.hipport/config"

# --- bad specs --------------------------------------------------------------
printf '[check]\n\tsource = src/transpose.cu\n\tseed = many\n' >"$repo/.hipport/checks/zz.bad.check"
check "malformed spec" 2 "$hipport" -C "$repo" check --bundle "$tmp/b2" src
expect "malformed spec named" "$tmp/err" "zz.bad.check:3: seed must be"
rm -rf "$repo/.hipport/checks"
check "no specs" 2 "$hipport" -C "$repo" check --bundle "$tmp/b3"
expect "no specs said" "$tmp/err" "no kernel check specs"
check "one mode at a time" 2 "$hipport" -C "$repo" check --draft-spec --import x.json src/a.cu

# --- the verbs: each the option of its name ---------------------------------
verbs="$tmp/verbs"
cp -r "$src/share/examples/fastops" "$verbs" && rm -rf "$verbs/.hipport" &&
	(cd "$verbs" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x) || exit 2
check "check draft" 0 "$hipport" -C "$verbs" check draft src/transpose.cu
expect "check draft drafts" "$tmp/out" "drafted for fastops::transpose"
check "check bundle" 0 "$hipport" -C "$verbs" check bundle "$tmp/vb" src/transpose.cu
truth "check bundle writes run.sh" test -f "$tmp/vb/run.sh"
check "check bundle: paths choose specs" 0 grep -c . "$tmp/vb/checks.list"
expect "one check" "$tmp/out" "1"
check "run.sh of the verb's bundle" 0 sh "$tmp/vb/run.sh"
"$hipport" -C "$verbs" check --import "$tmp/vb/results.json" >"$tmp/import-option.out" 2>&1
want=$?
check "check import as --import" $want "$hipport" -C "$verbs" check import "$tmp/vb/results.json"
expect "check import records" "$tmp/out" "transpose"
truth "the verb says what the option says" cmp -s "$tmp/out" "$tmp/import-option.out"
check "check bundle without DIR" 2 "$hipport" -C "$verbs" check bundle
expect "bundle's DIR asked for" "$tmp/err" "check bundle: name the bundle's directory"
check "verb and option" 2 "$hipport" -C "$verbs" check bundle "$tmp/vb2" --bundle "$tmp/vb3"
expect "said twice" "$tmp/err" "said twice"
check "two verbs' modes" 2 "$hipport" -C "$verbs" check draft --import x.json src/transpose.cu
"$hipport" -C "$verbs" check src/transpose.cu >"$tmp/run-plain.out" 2>/dev/null
want=$?
check "check run as plain check" $want "$hipport" -C "$verbs" check run src/transpose.cu
truth "check run runs the checks" grep -q "transpose" "$tmp/out"
finish
