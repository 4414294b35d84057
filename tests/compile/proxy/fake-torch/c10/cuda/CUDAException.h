// A stand-in for torch's header (its macros' names; torch 2.11 defines
// C10_HIP_CHECK itself).
#pragma once
#include <cuda_runtime_api.h>
#define C10_CUDA_CHECK(EXPR) ((void)(EXPR))
#define C10_HIP_CHECK C10_CUDA_CHECK
#define C10_CUDA_CHECK_WARN(EXPR) ((void)(EXPR))
#define C10_CUDA_ERROR_HANDLED(EXPR) EXPR
#define C10_CUDA_IGNORE_ERROR(EXPR) ((void)(EXPR))
#define C10_CUDA_CLEAR_ERROR() ((void)cudaGetLastError())
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
