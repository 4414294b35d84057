// A host-only stand-in for the HIP runtime under share/check/hipport_record.h,
// compiled by clang as HIP for the host alone (-x hip --cuda-host-only
// -nogpuinc): "device" memory is host memory the mock keeps a table of, a
// launch runs mock_body on the host, and the last error behaves as HIP's
// (hipGetLastError takes it, hipPeekAtLastError leaves it; a sticky error,
// as an assert's 710, fails every later call). Enough to test the recorder's
// capture and statuses without a GPU (tests/check/record_mock.cpp).
#pragma once
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct dim3 {
	unsigned x, y, z;
	dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
typedef struct ihipStream_t *hipStream_t;
typedef int hipError_t;
enum { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorMemoryAllocation = 2, hipErrorAssert = 710 };
enum hipMemcpyKind { hipMemcpyHostToDevice, hipMemcpyDeviceToHost };
#define __global__ __attribute__((global))

inline hipError_t mock_last, mock_sticky;
// what a launch runs, with the kernel's arguments as the launch passes them
inline hipError_t (*mock_body)(void **args);
inline struct mock_allocation {
	char *base;
	size_t bytes;
	bool live;
} mock_allocations[64];

static inline hipError_t mock_error(hipError_t e)
{
	if (e)
		mock_last = e;
	return e;
}
// the live allocation p points into, or NULL
static inline mock_allocation *mock_find(const void *p)
{
	for (mock_allocation &a : mock_allocations)
		if (a.live && (const char *)p >= a.base && (const char *)p < a.base + a.bytes)
			return &a;
	return NULL;
}
static inline hipError_t hipMalloc(void **p, size_t n)
{
	if (mock_sticky)
		return mock_error(mock_sticky);
	for (mock_allocation &a : mock_allocations)
		if (!a.live && !a.base && n < ((size_t)1 << 30)) {
			a.base = (char *)calloc(1, n);
			a.bytes = n;
			a.live = true;
			*p = a.base;
			return hipSuccess;
		}
	return mock_error(hipErrorMemoryAllocation);
}
// freed memory stays mapped (never reused), so a use after free is seen
static inline hipError_t hipFree(void *p)
{
	mock_allocation *a = mock_find(p);

	if (!a || a->base != p)
		return mock_error(hipErrorInvalidValue);
	a->live = false;
	return hipSuccess;
}
static inline hipError_t hipMemGetAddressRange(void **base, size_t *n, void *p)
{
	mock_allocation *a = mock_find(p);

	if (!a)
		return mock_error(hipErrorInvalidValue);
	*base = a->base;
	*n = a->bytes;
	return hipSuccess;
}
static inline hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind)
{
	if (mock_sticky)
		return mock_error(mock_sticky);
	if (!mock_find(kind == hipMemcpyDeviceToHost ? src : dst))
		return mock_error(hipErrorInvalidValue);
	memcpy(dst, src, n);
	return hipSuccess;
}
static inline hipError_t hipDeviceSynchronize(void) { return mock_error(mock_sticky); }
static inline hipError_t hipGetLastError(void)
{
	hipError_t e = mock_last;

	mock_last = mock_sticky;
	return e;
}
static inline hipError_t hipPeekAtLastError(void) { return mock_last; }
// events: each recorded one a microsecond after the last, so that a launch
// between two takes 1 us
typedef struct mock_event {
	double us;
} *hipEvent_t;
static inline hipError_t hipEventCreate(hipEvent_t *e)
{
	*e = (hipEvent_t)calloc(1, sizeof(**e));
	return *e ? mock_error(mock_sticky) : mock_error(hipErrorMemoryAllocation);
}
static inline hipError_t hipEventDestroy(hipEvent_t e)
{
	free(e);
	return hipSuccess;
}
// one GPU: the recorder makes its events on the device that launches
static inline hipError_t hipGetDevice(int *d)
{
	*d = 0;
	return mock_error(mock_sticky);
}
static inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t)
{
	static double now;

	e->us = ++now;
	return mock_error(mock_sticky);
}
static inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b)
{
	*ms = (float)((b->us - a->us) / 1000.0);
	return mock_error(mock_sticky);
}
// the symbol of the kernel a pointer holds: the one the test names
inline const char *mock_symbol;
static inline const char *hipKernelNameRefByPtr(const void *, hipStream_t) { return mock_symbol; }

// the launch as clang lowers kernel<<<...>>>(args) for HIP, and the module
// registration it emits: not inline, which clang would not emit (one
// translation unit includes this)
extern "C" hipError_t __hipPushCallConfiguration(dim3, dim3, size_t = 0, hipStream_t = 0) { return hipSuccess; }
extern "C" hipError_t __hipPopCallConfiguration(dim3 *, dim3 *, size_t *, hipStream_t *) { return hipSuccess; }
extern "C" hipError_t hipLaunchKernel(const void *, dim3, dim3, void **args, size_t, hipStream_t)
{
	hipError_t e = mock_sticky ? mock_sticky : mock_body ? mock_body(args) : hipSuccess;

	// an assert's launch succeeds; it is the synchronization that fails
	if (e == hipErrorAssert) {
		mock_sticky = e;
		return hipSuccess;
	}
	return mock_error(e);
}
// (the fat binary itself: -Wl,--defsym,__hip_fatbin=0)
extern "C" void **__hipRegisterFatBinary(const void *)
{
	static void *handle;
	return &handle;
}
extern "C" void __hipUnregisterFatBinary(void **) {}
extern "C" void __hipRegisterFunction(void **, const void *, char *, const char *, int, void *, void *, void *,
					     void *, int *)
{
}
