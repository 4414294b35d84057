// A stand-in for torch's header (declarations only, torch 2.11's names).
#pragma once
#include <c10/cuda/CUDAStream.h>
namespace c10 {
namespace cuda {
struct CUDAGuard {
	explicit CUDAGuard(DeviceIndex device_index);
	explicit CUDAGuard(Device device);
};
struct OptionalCUDAGuard {
	explicit OptionalCUDAGuard(std::optional<Device> device_opt);
};
struct CUDAStreamGuard {
	explicit CUDAStreamGuard(Stream stream);
};
struct OptionalCUDAStreamGuard {
	explicit OptionalCUDAStreamGuard(std::optional<Stream> stream_opt);
};
struct CUDAMultiStreamGuard {
	explicit CUDAMultiStreamGuard(const CUDAStream *streams, size_t n);
};
} // namespace cuda
} // namespace c10
