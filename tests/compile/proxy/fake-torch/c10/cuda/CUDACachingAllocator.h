// A stand-in for torch's header (declarations only).
#pragma once
#include <c10/cuda/CUDAStream.h>
namespace c10 {
namespace cuda {
namespace CUDACachingAllocator {
void *raw_alloc(size_t nbytes);
void raw_delete(void *ptr);
void recordStream(const DataPtr &ptr, CUDAStream stream);
} // namespace CUDACachingAllocator
} // namespace cuda
} // namespace c10
