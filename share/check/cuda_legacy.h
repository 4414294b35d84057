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
#if defined(__CUDACC__) && defined(__cplusplus) && defined(CUDART_VERSION) && CUDART_VERSION >= 9000
/* Warp votes and shuffles without a mask (CUDA 8 and before), which sm_70
 * and later lack (shuffles: undefined; votes: ptxas's "vote without
 * .sync"): their _sync forms over the lanes active at the call, what they
 * did on the GPUs they were written for (NVIDIA's american-options sample
 * calls __any). The shuffles are overloads of the device pass; the votes,
 * declared for every GPU, are macros, defined past every declaration of
 * the names (libcu++ has a struct __any of its own). */
#include <cuda_runtime.h>
#if defined(__has_include) && __cplusplus >= 201703L
#if __has_include(<cuda/std/__functional/invoke.h>)
#include <cuda/std/__functional/invoke.h>
#endif
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define HIPPORT_LEGACY_SHFL(T)                                                                           \
	static __device__ __forceinline__ T __shfl(T v, int lane, int width = warpSize)                  \
	{                                                                                                \
		return __shfl_sync(__activemask(), v, lane, width);                                      \
	}                                                                                                \
	static __device__ __forceinline__ T __shfl_up(T v, unsigned int delta, int width = warpSize)     \
	{                                                                                                \
		return __shfl_up_sync(__activemask(), v, delta, width);                                  \
	}                                                                                                \
	static __device__ __forceinline__ T __shfl_down(T v, unsigned int delta, int width = warpSize)   \
	{                                                                                                \
		return __shfl_down_sync(__activemask(), v, delta, width);                                \
	}                                                                                                \
	static __device__ __forceinline__ T __shfl_xor(T v, int mask, int width = warpSize)              \
	{                                                                                                \
		return __shfl_xor_sync(__activemask(), v, mask, width);                                  \
	}
HIPPORT_LEGACY_SHFL(int)
HIPPORT_LEGACY_SHFL(unsigned int)
HIPPORT_LEGACY_SHFL(long)
HIPPORT_LEGACY_SHFL(unsigned long)
HIPPORT_LEGACY_SHFL(long long)
HIPPORT_LEGACY_SHFL(unsigned long long)
HIPPORT_LEGACY_SHFL(float)
HIPPORT_LEGACY_SHFL(double)
#undef HIPPORT_LEGACY_SHFL
#endif
#define __any(p) __any_sync(__activemask(), (p))
#define __all(p) __all_sync(__activemask(), (p))
#define __ballot(p) __ballot_sync(__activemask(), (p))
#endif
#endif
