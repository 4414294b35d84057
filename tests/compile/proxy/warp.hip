// Warp intrinsics without a mask (HIP before 6.2), with and without the
// width, and HIP's 64-bit __ballot. No _sync form appears in this file.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
// a program that wrapped the _sync forms in macros of the old names, ported
#define __shfl_xor(...) __shfl_xor(__VA_ARGS__)

template <typename T>
__device__ T warp_sum(T v)
{
	for (int d = 16; d > 0; d /= 2)
		v += __shfl_down(v, d);
	return v;
}

__global__ void warp_ops(float *p, double *d, int *q, long long *ll, __half *h, unsigned long long *m)
{
	float v = p[threadIdx.x];
	v += __shfl(v, 0);
	v += __shfl(v, 3, 16);
	v += __shfl_up(v, 1);
	v += __shfl_up(v, 1, 16);
	v += __shfl_down(v, 2, 8);
	v += __shfl_xor(v, 1);
	v += __shfl_xor(v, 1, 16);
	double dv = warp_sum(d[threadIdx.x]) + __shfl_up(d[threadIdx.x], 1);
	int iv = __shfl_xor(q[threadIdx.x], 2) + warp_sum(q[threadIdx.x]);
	long long lv = __shfl_up(ll[threadIdx.x], 1, 32);
	__half hv = __shfl_down(h[threadIdx.x], 1);
	unsigned long long b = __ballot(v > 0.0f);
	auto b2 = __ballot(iv != 0);
	static_assert(sizeof(__ballot(1)) == 8, "HIP's __ballot is 64 bits wide");
	static_assert(sizeof(b2) == 8, "HIP's __ballot is 64 bits wide");
	if (__any(v > 1.0f) && __all(v > -100.0f) && !__any(0))
		m[threadIdx.x / 32] = b + (b2 >> 32) + __popcll(b) + __lane_id();
	p[threadIdx.x] = v + (float)dv + iv + (float)lv + __half2float(hv);
}
