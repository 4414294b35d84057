// A stand-in for torch's header: at::cuda sees c10::cuda's names.
#pragma once
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAStream.h>
namespace at {
using c10::Device;
namespace cuda {
using namespace c10::cuda;
} // namespace cuda
} // namespace at
