// A stand-in for torch's header (declarations only, with torch 2.11's
// signatures): enough to compile the nvidia-proxy's torch stubs here.
#pragma once
#include <cstdint>
#include <optional>
#include <cuda_runtime_api.h>
namespace c10 {
using DeviceIndex = int8_t;
struct Device {
	Device(int type, DeviceIndex index);
	DeviceIndex index() const;
};
struct Stream {};
struct DataPtr {};
namespace cuda {
class CUDAStream {
public:
	explicit CUDAStream(Stream stream);
	operator cudaStream_t() const;
	operator Stream() const;
	cudaStream_t stream() const;
	DeviceIndex device_index() const;
};
CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
CUDAStream getStreamFromPool(const int priority, DeviceIndex device = -1);
CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index);
CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
void setCurrentCUDAStream(CUDAStream stream);
} // namespace cuda
} // namespace c10
