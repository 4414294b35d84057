/* Record-and-compare: the launch logs that hipport_record.h writes (one
 * directory per run: launches.log and the allocations after each launch,
 * SEQ.ARG.bin; read by check/kernel/launch_log.h) of two runs lined up
 * kernel by kernel: the original's and the port's, each kernel's k-th
 * launch with the other's k-th. A launch whose inputs (scalars, and the
 * allocations its pointers reach, before it ran) match is judged by its
 * outputs (what it changed); the first such launch whose outputs differ
 * names the kernel to look at. A second run of the original tells
 * nondeterministic memory (atomics order, uninitialised allocations) from
 * divergence (docs/checks.md). Where both sides were built by the same
 * compiler (the port on nvidia-proxy), a deterministic output within
 * tolerance but not bit-exact is a divergence too: the port's kernel is
 * other code. A run stopped at its time limit is compared over the
 * launches it made. */
#ifndef HIPPORT_CHECK_RECORD_H
#define HIPPORT_CHECK_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check/kernel/compare.h"
#include "check/kernel/launch_log.h"
#include "check/kernel/spec.h"

typedef enum rec_verdict {
	REC_PASS,
	REC_FAIL,           /* outputs differ from identical inputs */
	REC_INPUTS_DIFFER,  /* every launch had other inputs: diverged before it */
	REC_ERROR           /* launched another number of times, failed unlike the other side, compared nothing */
} rec_verdict;

typedef struct rec_kernel {
	char kernel[128], site[256];
	size_t launches, compared; /* launch pairs; outputs compared over them */
	size_t skipped;            /* launches judged not: other inputs than the original's */
	size_t uncaptured;         /* launch pairs past HIPPORT_RECORD_LAUNCHES, status only */
	rec_verdict verdict;
	bool nondeterministic;     /* some output differed between two runs of the original */
	double spread;             /* the largest absolute difference between those runs' values */
	size_t failed_alike;       /* launches that failed with the original's statuses */
	size_t alike_launch;       /* the first of them */
	int alike_status[2];       /* its launch and sync statuses, on both sides */
	uint64_t clocked;          /* arguments that hold clock readings (bit i: argument i): not compared */
	double ref_us, port_us;    /* the launch pairs timed on both sides: their times, summed */
	size_t timed;              /* how many */
	float ratios[256];         /* the first ones' ratios (original / port), for their spread */
	size_t clock_readings;     /* outputs left uncompared for it */
	size_t first_launch;       /* the kernel's launch (from 0) the verdict is about */
	unsigned long long first_seq; /* its place in the port's run */
	int arg;                   /* the output that failed, or -1 */
	bool inexact;              /* one compiler both sides, deterministic, bytes differ though no fail */
	size_t inexact_launch;     /* the first such launch (from 0), its place in the port's run, */
	unsigned long long inexact_seq;
	char inexact_what[256];    /* and what differed */
	chk_dtype dtype;
	chk_stats stats;
	char message[512];
} rec_kernel;

typedef struct rec_report {
	rec_kernel *kernels; /* in order of first launch */
	size_t n;
	int first_divergent;     /* index of the kernel whose launch diverged first from identical inputs, or -1 */
	int first_failed;        /* index of the kernel whose launch failed first, or -1 */
	bool same_compiler;      /* the port ran on nvidia-proxy: both sides built by one nvcc for one GPU */
	bool swapped;            /* the original's second run is the reference: its first failed more */
	size_t ref_failures, ref2_failures; /* failed launches of the original's runs */
} rec_report;

/* Which arguments of kernel, launched at site (FILE:LINE), hold clock
 * readings (check/kernel/clocked.h): bit i for argument i. */
typedef uint64_t (*rec_clocked_fn)(const char *kernel, const char *site, void *data);

/* Lines up ref and port; ref2 (may be NULL) is a second run of the
 * original; clocked (may be NULL) names the outputs not to compare. */
int rec_compare(rec_report *out, const chk_recording *ref, const chk_recording *ref2, const chk_recording *port,
		rec_clocked_fn clocked, void *data);
void rec_report_dispose(rec_report *r);

/* The report as text, a line per kernel and the first divergence. */
void rec_report_print(FILE *f, const rec_report *r);

/* The median of k's launch pairs' ratios (original / port) and their
 * quartiles; false when no launch was timed on both sides. */
bool rec_kernel_ratio(const rec_kernel *k, double *q1, double *median, double *q3);
/* Launches a kernel must have timed on both sides for its quartiles to be a
 * spread: below it one cold launch (first touch of its pages, clocks not yet
 * up, other programs on the GPU) would be called a regression. */
#define REC_SPREAD_LAUNCHES 3
/* Whether k ran below budget beyond its spread: its upper quartile below
 * it, over at least REC_SPREAD_LAUNCHES launches. */
bool rec_kernel_slow(const rec_kernel *k, double budget);

/* The kernels' times (each launch once, as the program made it): the sums,
 * the ratio of the medians of the launch pairs' ratios and their quartiles;
 * "slow" where even the upper quartile is below budget. Nothing when no
 * launch was timed on both sides. */
void rec_report_print_times(FILE *f, const rec_report *r, double budget);

#endif
