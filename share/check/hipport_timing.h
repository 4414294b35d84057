// Kernel timing of a hipport check (docs/checks.md, "Timing"): the checked
// launch itself is timed with two events; then, unless it took long or
// printed, the kernel runs again, the first again a warm-up, until
// HP_TIME_RUNS runs or HP_TIME_BUDGET_MS of GPU time, and the median and
// quartiles are kept. Before each repeat the caches are flushed (a write
// of HP_TIME_FLUSH_BYTES, more than any GPU's last-level cache, MI300X's
// 256 MB Infinity Cache included), so that a kernel reads its buffers from
// memory as the checked launch did. The repeats run on the buffers as the
// checked launch left them (its outputs are already copied): their time,
// not their values, is what counts. HIPPORT_TIME=0 times nothing.
#ifndef HIPPORT_TIMING_H
#define HIPPORT_TIMING_H

#include <stdlib.h>
#include <string.h>

#define HP_TIME_RUNS 25
#define HP_TIME_BUDGET_MS 100.0f
#define HP_TIME_LONG_MS 50.0f // a launch this long is timed once, as checked
#ifndef HP_TIME_FLUSH_BYTES
#define HP_TIME_FLUSH_BYTES ((size_t)512 << 20)
#endif

struct hp_timing {
	int measured;               // 0: not timed (why says why)
	int runs;                   // 1: the checked launch alone
	double median_us, q1_us, q3_us;
	char why[160];
};

static int hp_by_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

// The quantile q (0..1) of n sorted values, interpolated.
static double hp_quantile(const float *v, int n, double q)
{
	double at = q * (n - 1);
	int lo = (int)at;

	return lo + 1 < n ? v[lo] + (at - lo) * (v[lo + 1] - v[lo]) : v[lo];
}

static int hp_time_off(void)
{
	const char *e = getenv("HIPPORT_TIME");

	return e && strcmp(e, "0") == 0;
}

// The checked launch, between two events (start, stop made here).
template <class F> static void hp_time_first(hipEvent_t *start, hipEvent_t *stop, F launch)
{
	int ok = !hp_time_off() && hipEventCreate(start) == hipSuccess && hipEventCreate(stop) == hipSuccess &&
		 hipEventRecord(*start, 0) == hipSuccess;

	launch();
	if (!ok || hipEventRecord(*stop, 0) != hipSuccess)
		*start = *stop = NULL;
}

// After the checked launch has finished: its time, then the repeats.
template <class F>
static void hp_time_repeats(struct hp_timing *t, hipEvent_t start, hipEvent_t stop, int printed, F launch)
{
	float first = 0, ms[HP_TIME_RUNS], spent = 0;
	void *flush = NULL;
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (hp_time_off()) {
		snprintf(t->why, sizeof(t->why), "HIPPORT_TIME=0");
		return;
	}
	if (!start || hipEventElapsedTime(&first, start, stop) != hipSuccess) {
		snprintf(t->why, sizeof(t->why), "the events of the checked launch failed");
		return;
	}
	t->measured = 1;
	t->runs = 1;
	t->median_us = t->q1_us = t->q3_us = first * 1000.0;
	if (printed || first >= HP_TIME_LONG_MS) {
		snprintf(t->why, sizeof(t->why), "%s", printed ? "one run: the kernel prints, not repeated"
							       : "one run: a long kernel, not repeated");
		return;
	}
	launch(); // warm-up
	if (hipDeviceSynchronize() != hipSuccess) {
		snprintf(t->why, sizeof(t->why), "one run: the warm-up launch failed");
		return;
	}
	if (hipMalloc(&flush, HP_TIME_FLUSH_BYTES) != hipSuccess) {
		flush = NULL;
		(void)hipGetLastError();
	}
	while (n < HP_TIME_RUNS && spent < HP_TIME_BUDGET_MS) {
		if ((flush && hipMemsetAsync(flush, n & 0xff, HP_TIME_FLUSH_BYTES, 0) != hipSuccess) ||
		    hipEventRecord(start, 0) != hipSuccess)
			break;
		launch();
		if (hipEventRecord(stop, 0) != hipSuccess || hipEventSynchronize(stop) != hipSuccess ||
		    hipEventElapsedTime(&ms[n], start, stop) != hipSuccess)
			break;
		spent += ms[n++];
	}
	if (flush)
		(void)hipFree(flush);
	if (n < 3) {
		snprintf(t->why, sizeof(t->why), "one run: a repeated launch failed");
		return;
	}
	qsort(ms, (size_t)n, sizeof(*ms), hp_by_float);
	t->runs = n;
	t->median_us = hp_quantile(ms, n, 0.5) * 1000.0;
	t->q1_us = hp_quantile(ms, n, 0.25) * 1000.0;
	t->q3_us = hp_quantile(ms, n, 0.75) * 1000.0;
	snprintf(t->why, sizeof(t->why), "%s", flush ? "" : "caches not flushed between runs (no memory for it)");
}

#endif
