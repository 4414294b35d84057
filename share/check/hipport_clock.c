// A wall clock that reads the same on every run, preloaded into record runs
// (record.sh; HIPPORT_RECORD_CLOCK=0 leaves the real one): a program that
// seeds its inputs from the time (srand(time(NULL)), gettimeofday's usec)
// then makes the same inputs in the original's two runs and in the port's,
// so that its launches can be compared instead of all looking
// nondeterministic. It starts at a fixed second and moves 1 us a call, so
// that a loop waiting for time to pass still ends. Only the wall clock, and
// only for the program's own calls: CLOCK_MONOTONIC and the others, and
// every call a library makes (cuBLAS, the driver), are the system's.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/time.h>
#include <time.h>

#define HIPPORT_CLOCK_START 1700000000LL /* seconds: 2023-11-14 */

/* microseconds since the start, one count per function: a call the
 * runtime makes to one clock (its own timing) does not move the others,
 * so the program's first gettimeofday reads the same on every run */
static unsigned long long hipport_clock_time, hipport_clock_tod, hipport_clock_real;

/* Whether the call comes from the program itself: the libraries (cuBLAS,
 * the driver) read the real time, however often they do, so that their
 * calls move no count the program's seed depends on. */
static int hipport_clock_caller_is_program(const void *ret)
{
	static const void *program;
	Dl_info self, caller;

	if (!program) {
		const void *phdr = (const void *)getauxval(AT_PHDR);

		if (!phdr || !dladdr(phdr, &self))
			return 1;
		program = self.dli_fbase;
	}
	return !dladdr(ret, &caller) || caller.dli_fbase == program;
}

static int (*hipport_clock_real_gettime(void))(clockid_t, struct timespec *)
{
	static int (*real)(clockid_t, struct timespec *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
	return real;
}

static void hipport_clock_now(struct timespec *ts, unsigned long long *count)
{
	unsigned long long us = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);

	ts->tv_sec = (time_t)(HIPPORT_CLOCK_START + (long long)(us / 1000000));
	ts->tv_nsec = (long)(us % 1000000) * 1000;
}

/* the real wall clock, for a library's call */
static void hipport_clock_system(struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) = hipport_clock_real_gettime();

	if (!real || real(CLOCK_REALTIME, ts) != 0)
		ts->tv_sec = ts->tv_nsec = 0;
}

time_t time(time_t *out)
{
	struct timespec ts;

	if (hipport_clock_caller_is_program(__builtin_return_address(0)))
		hipport_clock_now(&ts, &hipport_clock_time);
	else
		hipport_clock_system(&ts);
	if (out)
		*out = ts.tv_sec;
	return ts.tv_sec;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;

	(void)tz;
	if (hipport_clock_caller_is_program(__builtin_return_address(0)))
		hipport_clock_now(&ts, &hipport_clock_tod);
	else
		hipport_clock_system(&ts);
	tv->tv_sec = ts.tv_sec; /* glibc declares tv nonnull */
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int (*real)(clockid_t, struct timespec *) = hipport_clock_real_gettime();

	if ((id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) &&
	    hipport_clock_caller_is_program(__builtin_return_address(0))) {
		hipport_clock_now(ts, &hipport_clock_real);
		return 0;
	}
	return real ? real(id, ts) : -1;
}
