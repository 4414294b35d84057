/* Runtime calls that CUDA 12 and 13 removed or changed, as the calls that replaced them, for
 * the reference side of a check or a record run (record/compiler.sh and
 * run.sh include it before the original): an older program is then built as
 * it was written, with the same meaning, by the nvcc installed. Texture and
 * surface references have no such replacement and still fail to build. */
#ifndef HIPPORT_CUDA_LEGACY_H
#define HIPPORT_CUDA_LEGACY_H
#if defined(__CUDACC__) || (defined(__has_include) && __has_include(<cuda_runtime_api.h>))
#include <cuda_runtime_api.h>
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
	return cudaDeviceSetLimit(limit, value);
}
static inline cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit)
{
	return cudaDeviceGetLimit(value, limit);
}
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config)
{
	return cudaDeviceSetCacheConfig(config);
}
static inline cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config)
{
	return cudaDeviceGetCacheConfig(config);
}
#endif
#if defined(__cplusplus) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
/* CUDA 13 takes a cudaMemLocation where these took a device number */
static inline cudaMemLocation hipport_legacy_location(int device)
{
	cudaMemLocation l;
	l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
	l.id = device == cudaCpuDeviceId ? 0 : device;
	return l;
}
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s = 0)
{
	return cudaMemPrefetchAsync(p, n, hipport_legacy_location(device), 0, s);
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise advice, int device)
{
	return cudaMemAdvise(p, n, advice, hipport_legacy_location(device));
}
#endif
#endif
#endif
