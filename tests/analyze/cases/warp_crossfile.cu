// A warp size of 32 from another file: the uses of the constant are flagged,
// since the definition's file does not say what it is for.
#include <cuda_runtime.h>
#include "warp_consts.h"

__global__ void count_edges(const int *in, int *out, int n)
{
	const int lane = threadIdx.x % WS; // expect: WARP-001
	const int warp = threadIdx.x / WS; // expect: WARP-001
	const int sub = threadIdx.x % TILE;
	int v = n % WS;
	if (__any_sync(~0u, in[threadIdx.x] > 0))
		out[warp * WS + lane] = v + sub;
}
