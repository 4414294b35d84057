# A program and its recorded run, for the --from-record tests: REPO holds
# prog/main.cu (fill, then scale_add on y + 4, and a kernel never
# launched); DIR holds launches.log and the allocations after each launch
# as hipport_record.h writes them (the hashes its FNV-1a over 64-bit words).
# fill leaves y as 0, 1, 2, ...; scale_add reads x (unchanged by it) and
# that y, and changes z, whose bytes before it no launch left.
# Sourced by the CLI tests; needs git and python3.
draft_record_fixture() {
	repo=$1
	dir=$2
	rm -rf "$repo" "$dir" && mkdir -p "$repo/prog" "$dir" || return 1
	cat >"$repo/prog/main.cu" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct Params {
	int n;
	float scale;
};

__global__ void fill(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = (float)i;
}

__global__ void scale_add(const float *x, float *y, float *z, Params p, float bias, int n)
{
	extern __shared__ float tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	tile[threadIdx.x % 16] = bias;
	if (i < n) {
		y[i] = p.scale * x[i] + y[i] + tile[threadIdx.x % 16];
		z[i] += y[i];
	}
}

__global__ void unused_kernel(float *w, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		w[i] = 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 250;
	float *x, *y, *z;
	cudaMalloc(&x, n * sizeof(float));
	cudaMalloc(&y, n * sizeof(float));
	cudaMalloc(&z, n * sizeof(float));
	fill<<<(n + 127) / 128, 128>>>(y, n);
	Params p = {n, 2.5f};
	scale_add<<<(n + 127) / 128, 128, 16 * sizeof(float)>>>(x, y + 4, z, p, 0.25f, n - 4);
	cudaDeviceSynchronize();
	return 0;
}
EOF
	(cd "$repo" && git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm fixture) || return 1
	python3 - "$dir" <<'PY'
import os, struct, sys
d = sys.argv[1]
M = (1 << 64) - 1
def h(b):
    x, i = 0xcbf29ce484222325, 0
    while i + 8 <= len(b):
        x = ((x ^ struct.unpack('<Q', b[i:i + 8])[0]) * 0x100000001b3) & M
        i += 8
    for c in b[i:]:
        x = ((x ^ c) * 0x100000001b3) & M
    return x
n = 250
f = lambda v: struct.pack('<%df' % n, *v)
x = f([0.5 * i - 3 for i in range(n)])
y0, y1 = bytes(4 * n), f([float(i) for i in range(n)])
y2 = f([2.5 * (0.5 * (i - 4) - 3) + i + 0.25 if i >= 4 else float(i) for i in range(n)])
z0, z1 = f([1.0] * n), f([2.0] * n)
for name, data in (("0.0.bin", y1), ("1.0.bin", x), ("1.1.bin", y2), ("1.2.bin", z1)):
    open(os.path.join(d, name), "wb").write(data)
log = [
    "launch 0 fill prog/main.cu:42 grid 2 1 1 block 128 1 1 shared 0 status 0 0",
    "arg 0 pointer f32 0 1000 %016x %016x 0.0.bin" % (h(y0), h(y1)),
    "arg 1 scalar i32 fa000000",
    "launch 1 scale_add prog/main.cu:44 grid 2 1 1 block 128 1 1 shared 64 status 0 0",
    "arg 0 pointer f32 0 1000 %016x %016x 1.0.bin" % (h(x), h(x)),
    "arg 1 pointer f32 16 1000 %016x %016x 1.1.bin" % (h(y1), h(y2)),
    "arg 2 pointer f32 0 1000 %016x %016x 1.2.bin" % (h(z0), h(z1)),
    "arg 3 scalar bytes fa00000000002040",
    "arg 4 scalar f32 0000803e",
    "arg 5 scalar i32 f6000000",
]
open(os.path.join(d, "launches.log"), "w").write("\n".join(log) + "\n")
PY
}
