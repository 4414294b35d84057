#pragma once
#include "mask_defs.h"

// FINAL_MASK is used only as a mask in this header: its port widens it here.
#define FINAL_MASK 0xffffffff

template <typename T>
__inline__ __device__ T warp_reduce_sum(T val)
{
    for (int mask = 16; mask > 0; mask >>= 1)
        val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
    return val;
}
