// A host-only stand-in for the HIP runtime: enough of it for
// share/check/hipport_harness.h to run on a machine without a GPU, with
// "device" memory in host memory, so that the harness's inputs, outputs,
// comparison and results can be tested here.
#pragma once
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int hipError_t;
enum { hipSuccess = 0, hipErrorNoDevice = 100, hipErrorMemoryAllocation = 2 };
enum hipMemcpyKind { hipMemcpyHostToDevice, hipMemcpyDeviceToHost };
struct hipDeviceProp_t {
	char name[256];
	int major, minor;
};

static int mock_devices = 1;
static int mock_fail_malloc = 0;

static inline hipError_t hipGetDeviceCount(int *count)
{
	*count = mock_devices;
	return mock_devices ? hipSuccess : hipErrorNoDevice;
}
static inline hipError_t hipSetDevice(int) { return hipSuccess; }
static inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int)
{
	strcpy(p->name, "mock device");
	p->major = 9;
	p->minor = 0;
	return hipSuccess;
}
static inline hipError_t hipMalloc(void **p, size_t n)
{
	if (mock_fail_malloc)
		return hipErrorMemoryAllocation;
	*p = malloc(n);
	return *p ? hipSuccess : hipErrorMemoryAllocation;
}
static inline hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind)
{
	memcpy(dst, src, n);
	return hipSuccess;
}
// device memory is host memory: a __device__ variable's address is its own
#define HIP_SYMBOL(x) x
static inline hipError_t hipGetSymbolAddress(void **p, const void *symbol)
{
	*p = (void *)symbol;
	return hipSuccess;
}
static inline hipError_t hipFree(void *p)
{
	free(p);
	return hipSuccess;
}
static inline hipError_t hipGetLastError(void) { return hipSuccess; }
static inline hipError_t hipDeviceSynchronize(void) { return hipSuccess; }
// events: the host's clock when recorded (a "kernel" runs on the host, at once)
typedef struct mock_event {
	struct timespec at;
} *hipEvent_t;
static inline hipError_t hipEventCreate(hipEvent_t *e)
{
	*e = (hipEvent_t)calloc(1, sizeof(**e));
	return *e ? hipSuccess : hipErrorMemoryAllocation;
}
static inline hipError_t hipEventRecord(hipEvent_t e, int)
{
	clock_gettime(CLOCK_MONOTONIC, &e->at);
	return hipSuccess;
}
static inline hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }
static inline hipError_t hipMemsetAsync(void *p, int v, size_t n, int)
{
	memset(p, v, n);
	return hipSuccess;
}
static inline hipError_t hipEventElapsedTime(float *ms, hipEvent_t a, hipEvent_t b)
{
	*ms = (float)((b->at.tv_sec - a->at.tv_sec) * 1e3 + (b->at.tv_nsec - a->at.tv_nsec) / 1e6);
	return hipSuccess;
}
static inline const char *hipGetErrorString(hipError_t e)
{
	return e == hipErrorNoDevice ? "hipErrorNoDevice" : e == hipErrorMemoryAllocation ? "hipErrorOutOfMemory" : "?";
}
