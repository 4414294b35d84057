/* Kernel timing of the checks (docs/checks.md, "Timing"): each side's time
 * as a check's harness measured it ("time" in results.json), the ratio of
 * the two, the bandwidth the port's buffers moved and its share of the
 * device's peak, and the performance budget: a port below check.perfBudget
 * (default 0.8) of the reference, beyond the spread of both, is slow. */
#ifndef HIPPORT_CHECK_PERF_H
#define HIPPORT_CHECK_PERF_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct perf_side {
	bool measured;
	double median_us, q1_us, q3_us;
	int runs;
	char device[128];
} perf_side;

typedef struct perf_timing {
	perf_side ref, port;
	double bytes;     /* read and written by the kernel's buffers */
	char note[160];   /* why a side has one run, or none */
} perf_timing;

/* A check's "time" object (may be NULL: not timed); UTIL_EINPUT naming
 * what is wrong with it. */
int perf_timing_read(perf_timing *out, const json_t *time);

/* What the figures say, for a budget (0.8: the port at 0.8x the reference's speed). */
typedef struct perf_verdict {
	bool comparable;   /* both sides measured */
	double ratio;      /* reference time / port time: above 1, the port is faster */
	double low, high;  /* the ratio's range over both sides' quartiles */
	double gbps;       /* the port's bandwidth, GB/s; 0 when no bytes */
	double peak_gbps;  /* its device's peak, 0 when the device is in no row of the table */
	bool above_peak;   /* gbps beyond the peak: the spec's buffers are larger than what the
			    * kernel touches, so no share of the peak is told */
	bool slow;         /* the whole range below the budget */
	bool same_gpu;     /* both sides on one kind of device */
} perf_verdict;

void perf_judge(perf_verdict *out, const perf_timing *t, double budget);

/* The peak memory bandwidth (GB/s) of the device named, from
 * share/perf/gpus.tsv; 0 when no row matches (never a guess). */
double perf_gpu_peak(const char *device, const char **source);

/* A line of the time table: NAME, each side's median, ratio and its range,
 * bandwidth, share of peak, "slow" where it is. */
void perf_print_row(FILE *f, const char *name, const perf_timing *t, const perf_verdict *v);
void perf_print_header(FILE *f);

#endif
