// HIP 6.2's warp _sync intrinsics, for building ports made with
// --target-hip=6.2 against an older HIP: like HIP 6.2 they take the lane mask
// as a 64-bit integer and reject a narrower one at compile time.
#pragma once
#include <hip/hip_runtime.h>
/* a HIP 6.2 or newer has its own */
#if HIP_VERSION_MAJOR * 100 + HIP_VERSION_MINOR < 602

#define HIPPORT_MASK_CHECK(MaskT) \
	static_assert(sizeof(MaskT) == 8, "The mask must be a 64-bit integer.")

template <typename MaskT, typename T>
__device__ T __shfl_sync(MaskT mask, T var, int src, int width = warpSize)
{
	HIPPORT_MASK_CHECK(MaskT);
	return __shfl(var, src, width);
}
template <typename MaskT, typename T>
__device__ T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize)
{
	HIPPORT_MASK_CHECK(MaskT);
	return __shfl_up(var, delta, width);
}
template <typename MaskT, typename T>
__device__ T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize)
{
	HIPPORT_MASK_CHECK(MaskT);
	return __shfl_down(var, delta, width);
}
template <typename MaskT, typename T>
__device__ T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize)
{
	HIPPORT_MASK_CHECK(MaskT);
	return __shfl_xor(var, lane_mask, width);
}
template <typename MaskT>
__device__ unsigned long long __ballot_sync(MaskT mask, int predicate)
{
	HIPPORT_MASK_CHECK(MaskT);
	return __ballot(predicate);
}
#endif
