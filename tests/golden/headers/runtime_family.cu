// Runtime-side CUDA headers, each mapped to its HIP header.
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuComplex.h>
#include <vector_types.h>
#include <cooperative_groups.h>
#include <device_functions.h>
#include <driver_types.h>
#include <channel_descriptor.h>
#include <cuda_texture_types.h>
#include <library_types.h>
#include <math_constants.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void tile_sum(const float *in, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    float v = in[block.thread_rank()];
    block.sync();
    if (block.thread_rank() == 0)
        *out = v * CUDART_PI_F;
}
