// share/check/hipport_record.h over the mock HIP runtime (mock/hip/hip_runtime.h):
// launches recorded as the bundle's record trees make them, each "kernel" a
// host function. Run with HIPPORT_RECORD_DIR; test-harness-runtime.sh reads
// the launches.log it writes. Prints what the program itself saw.
#include "hipport_record.h"

#include <stdio.h>

// CUDA by Example's Lock (appendix A): a copy's destructor frees the mutex
// the program's Lock holds, so the recorder must not copy it
struct Lock {
	int *mutex;
	Lock() { hipMalloc((void **)&mutex, sizeof(int)); }
	~Lock() { hipFree(mutex); }
};

__global__ void locked(Lock lock, int *out) {}
__global__ void adds(int *out) {}
__global__ void fails(int *out) {}
__global__ void asserts(int *out) {}

// the mutex still allocated when the kernel runs
static hipError_t locked_body(void **args)
{
	const Lock *lock = (const Lock *)args[0];
	int *out = *(int **)args[1];

	if (!mock_find(lock->mutex))
		return hipErrorInvalidValue;
	*out += 1;
	return hipSuccess;
}
static hipError_t adds_body(void **args)
{
	**(int **)args[0] += 2;
	return hipSuccess;
}
static hipError_t fails_body(void **) { return hipErrorInvalidValue; }
static hipError_t prints_body(void **)
{
	printf("element 0: 1.5\n");
	return hipSuccess;
}
static hipError_t asserts_body(void **args)
{
	**(int **)args[0] = 5;
	return hipErrorAssert;
}

int main()
{
	Lock lock;
	int *out, *big;

	hipMalloc((void **)&out, sizeof(int));
	// (the launch's own copy of lock frees the mutex after it, as in the
	// original program: one launch of it)
	mock_body = locked_body;
	HIPPORT_RECORD_LAUNCH("locked", "lock.cu:1", locked, 1, 1)(lock, out);
	printf("after locked: %d\n", (int)hipGetLastError());
	// an error the program made before a launch is not that launch's
	hipMalloc((void **)&big, (size_t)1 << 40);
	mock_body = adds_body;
	HIPPORT_RECORD_LAUNCH("adds", "lock.cu:2", adds, 1, 1)(out);
	printf("after adds: %d\n", (int)hipGetLastError());
	// a launch's own error: recorded, and still there for the program's check
	mock_body = fails_body;
	HIPPORT_RECORD_LAUNCH("fails", "lock.cu:3", fails, 1, 1)(out);
	printf("after fails: %d\n", (int)hipGetLastError());
	// a launch through a function pointer takes its kernel's name, a
	// template's without arguments and scope
	void (*kernel)(int *) = adds;
	mock_body = adds_body;
	mock_symbol = "_ZN2ns5scaleIfLi4EEEvPi";
	HIPPORT_RECORD_LAUNCH_POINTER("lock.cu:5", kernel, 1, 1)(out);
	mock_symbol = "_Z4addsPi";
	HIPPORT_RECORD_LAUNCH_POINTER("lock.cu:6", kernel, 1, 1)(out);
	// a launch through the runtime's call: its arguments read from the
	// array, its status the call's
	void *array[] = { &out };
	hipError_t status = HIPPORT_RECORD_LAUNCH_CALL("adds", "lock.cu:7", adds, 1, 1, array, 0, [&] {
		return hipLaunchKernel((const void *)adds, 1, 1, array, 0, 0);
	});
	printf("after the call: %d\n", (int)status);
	// what a launch prints is kept, and still shown
	mock_body = prints_body;
	HIPPORT_RECORD_LAUNCH("adds", "lock.cu:8", adds, 1, 1)(out);
	// an assert breaks the context: what the recorder reads of it is zeroes
	mock_body = asserts_body;
	HIPPORT_RECORD_LAUNCH("asserts", "lock.cu:4", asserts, 1, 1)(out);
	return 0;
}
