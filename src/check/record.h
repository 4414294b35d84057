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

#include "check/compare.h"
#include "check/spec.h"

typedef enum chk_rec_arg_kind {
	CHK_REC_SCALAR,
	CHK_REC_POINTER,
	CHK_REC_SAME,   /* a pointer into an allocation an earlier argument reaches */
	CHK_REC_UNKNOWN /* a pointer the driver does not know (host memory, NULL) */
} chk_rec_arg_kind;

typedef struct chk_rec_arg {
	chk_rec_arg_kind kind;
	char dtype[16];
	char scalar[40];   /* hex of the scalar's bytes */
	size_t offset, bytes;
	uint64_t before, after;
	char file[64];     /* the allocation after the launch, or "" when only hashed */
	int owner;         /* a pointer held by struct argument owner (at byte at), or -1 */
	size_t at;
} chk_rec_arg;

typedef struct chk_rec_launch {
	unsigned long long seq;
	char kernel[128], site[256];
	unsigned grid[3], block[3];
	size_t shared;
	int launch_status, sync_status;
	bool uncaptured; /* past HIPPORT_RECORD_LAUNCHES: status only, no arguments */
	chk_rec_arg *args;
	size_t nargs;
} chk_rec_launch;

typedef struct chk_rec_log {
	char *dir;
	chk_rec_launch *launches;
	size_t n;
} chk_rec_log;

/* Reads dir/launches.log; UTIL_EINPUT naming the file and line. */
int chk_rec_log_read(chk_rec_log *out, const char *dir);
void chk_rec_log_dispose(chk_rec_log *log);

typedef enum chk_rec_verdict {
	CHK_REC_PASS,
	CHK_REC_FAIL,           /* outputs differ from identical inputs */
	CHK_REC_INPUTS_DIFFER,  /* every launch had other inputs: diverged before it */
	CHK_REC_ERROR           /* launched another number of times, failed to launch, compared nothing */
} chk_rec_verdict;

typedef struct chk_rec_kernel {
	char kernel[128], site[256];
	size_t launches, compared; /* launch pairs; outputs compared over them */
	size_t uncaptured;         /* launch pairs past HIPPORT_RECORD_LAUNCHES, status only */
	chk_rec_verdict verdict;
	bool nondeterministic;     /* some output differed between two runs of the original */
	size_t first_launch;       /* the kernel's launch (from 0) the verdict is about */
	unsigned long long first_seq; /* its place in the port's run */
	int arg;                   /* the output that failed, or -1 */
	chk_dtype dtype;
	chk_stats stats;
	char message[512];
} chk_rec_kernel;

typedef struct chk_rec_report {
	chk_rec_kernel *kernels; /* in order of first launch */
	size_t n;
	int first_divergent;     /* index of the kernel whose launch diverged first from identical inputs, or -1 */
} chk_rec_report;

/* Lines up ref and port; ref2 (may be NULL) is a second run of the original. */
int chk_rec_compare(chk_rec_report *out, const chk_rec_log *ref, const chk_rec_log *ref2, const chk_rec_log *port);
void chk_rec_report_dispose(chk_rec_report *r);

/* The report as text, a line per kernel and the first divergence. */
void chk_rec_report_print(FILE *f, const chk_rec_report *r);

#endif
