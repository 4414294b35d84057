// Copyright (c) 2024 Example Corp.
// SPDX-License-Identifier: MIT
/* Kernels only: the host code including this file brings the runtime. */

__global__ void clear(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 0.0f;
}
