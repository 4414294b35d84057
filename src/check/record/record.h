/* Record-and-compare: the launch logs that hipport_record.h writes (one
 * directory per run: launches.log and the allocations after each launch,
 * SEQ.ARG.bin) read back, and two runs lined up kernel by kernel: the
 * original's and the port's, each kernel's k-th launch with the other's
 * k-th. A launch whose inputs (scalars, and the allocations its pointers
 * reach, before it ran) match is judged by its outputs (what it changed);
 * the first such launch whose outputs differ names the kernel to look at.
 * A second run of the original tells nondeterministic memory (atomics
 * order, uninitialised allocations) from divergence (docs/checks.md). */
#ifndef HIPPORT_CHECK_RECORD_H
#define HIPPORT_CHECK_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check/kernel/compare.h"
#include "check/kernel/spec.h"

typedef enum rec_arg_kind {
	REC_SCALAR,
	REC_POINTER,
	REC_SAME,   /* a pointer into an allocation an earlier argument reaches */
	REC_UNKNOWN /* a pointer the driver does not know (host memory, NULL) */
} rec_arg_kind;

typedef struct rec_arg {
	rec_arg_kind kind;
	char dtype[16];
	char scalar[40];   /* hex of the scalar's bytes */
	size_t offset, bytes;
	uint64_t before, after;
	char file[64];     /* the allocation after the launch, or "" when only hashed */
	int owner;         /* a pointer held by struct argument owner (at byte at), or -1 */
	size_t at;
} rec_arg;

typedef struct rec_launch {
	unsigned long long seq;
	char kernel[128], site[256];
	unsigned grid[3], block[3];
	size_t shared;
	int launch_status, sync_status;
	bool uncaptured; /* past HIPPORT_RECORD_LAUNCHES: status only, no arguments */
	rec_arg *args;
	size_t nargs;
} rec_launch;

typedef struct rec_log {
	char *dir;
	rec_launch *launches;
	size_t n;
} rec_log;

/* Reads dir/launches.log; UTIL_EINPUT naming the file and line. */
int rec_log_read(rec_log *out, const char *dir);
void rec_log_dispose(rec_log *log);

typedef enum rec_verdict {
	REC_PASS,
	REC_FAIL,           /* outputs differ from identical inputs */
	REC_INPUTS_DIFFER,  /* every launch had other inputs: diverged before it */
	REC_ERROR           /* launched another number of times, failed to launch, compared nothing */
} rec_verdict;

typedef struct rec_kernel {
	char kernel[128], site[256];
	size_t launches, compared; /* launch pairs; outputs compared over them */
	size_t uncaptured;         /* launch pairs past HIPPORT_RECORD_LAUNCHES, status only */
	rec_verdict verdict;
	bool nondeterministic;     /* some output differed between two runs of the original */
	size_t first_launch;       /* the kernel's launch (from 0) the verdict is about */
	unsigned long long first_seq; /* its place in the port's run */
	int arg;                   /* the output that failed, or -1 */
	chk_dtype dtype;
	chk_stats stats;
	char message[512];
} rec_kernel;

typedef struct rec_report {
	rec_kernel *kernels; /* in order of first launch */
	size_t n;
	int first_divergent;     /* index of the kernel whose launch diverged first from identical inputs, or -1 */
} rec_report;

/* Lines up ref and port; ref2 (may be NULL) is a second run of the original. */
int rec_compare(rec_report *out, const rec_log *ref, const rec_log *ref2, const rec_log *port);
void rec_report_dispose(rec_report *r);

/* The report as text, a line per kernel and the first divergence. */
void rec_report_print(FILE *f, const rec_report *r);

#endif
