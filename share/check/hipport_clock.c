// A wall clock that reads the same on every run, preloaded into record runs
// (record.sh; HIPPORT_RECORD_CLOCK=0 leaves the real one): a program that
// seeds its inputs from the time (srand(time(NULL)), gettimeofday's usec)
// then makes the same inputs in the original's two runs and in the port's,
// so that its launches can be compared instead of all looking
// nondeterministic. It starts at a fixed second and moves 1 us a call, so
// that a loop waiting for time to pass still ends. Only the wall clock:
// CLOCK_MONOTONIC and the others, which the GPU driver times itself by, are
// the system's.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/time.h>
#include <time.h>

#define HIPPORT_CLOCK_START 1700000000LL /* seconds: 2023-11-14 */

/* microseconds since the start, one count per function: a call the
 * runtime makes to one clock (its own timing) does not move the others,
 * so the program's first gettimeofday reads the same on every run */
static unsigned long long hipport_clock_time, hipport_clock_tod, hipport_clock_real;

static void hipport_clock_now(struct timespec *ts, unsigned long long *count)
{
	unsigned long long us = __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);

	ts->tv_sec = (time_t)(HIPPORT_CLOCK_START + (long long)(us / 1000000));
	ts->tv_nsec = (long)(us % 1000000) * 1000;
}

time_t time(time_t *out)
{
	struct timespec ts;

	hipport_clock_now(&ts, &hipport_clock_time);
	if (out)
		*out = ts.tv_sec;
	return ts.tv_sec;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	struct timespec ts;

	(void)tz;
	hipport_clock_now(&ts, &hipport_clock_tod);
	tv->tv_sec = ts.tv_sec; /* glibc declares tv nonnull */
	tv->tv_usec = ts.tv_nsec / 1000;
	return 0;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);

	if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
		hipport_clock_now(ts, &hipport_clock_real);
		return 0;
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
	return real ? real(id, ts) : -1;
}
