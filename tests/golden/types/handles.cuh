#pragma once
#include <cuda_runtime.h>

// A small RAII-less context object as found in many CUDA code bases.
struct GpuContext {
    int device;
    cudaStream_t stream;
    cudaEvent_t ready;
    cudaError_t last_error;
    dim3 block;
    dim3 grid;
};

inline cudaError_t context_init(GpuContext *ctx, int device, unsigned n)
{
    ctx->device = device;
    ctx->block = dim3(256, 1, 1);
    ctx->grid = dim3((n + 255) / 256);
    ctx->last_error = cudaStreamCreate(&ctx->stream);
    if (ctx->last_error != cudaSuccess)
        return ctx->last_error;
    return ctx->last_error = cudaEventCreate(&ctx->ready);
}

typedef void (*completion_fn)(cudaStream_t, cudaError_t, void *);
