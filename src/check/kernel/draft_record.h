/* Specs from a recorded run (docs/checks.md, "Specs from a recording"):
 * the launches.log and SEQ.ARG.bin allocations that share/check/
 * hipport_record.h writes for a run of the program (record.sh's
 * work/record/NAME/ref) give each launched kernel's exact launch: grid,
 * block, shared memory, the scalars' bytes, each buffer's size and offset,
 * and the bytes each buffer held before the launch, stored beside the spec
 * (.hipport/checks/inputs/NAME/ARG.bin) and embedded in its harness. The
 * log is read here, not with check/record's reader: kernel checks come
 * before record-and-compare in check/'s rooms. */
#ifndef HIPPORT_CHECK_DRAFT_RECORD_H
#define HIPPORT_CHECK_DRAFT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/kernel/spec.h"

typedef enum chk_rec_kind {
	CHK_REC_SCALAR,
	CHK_REC_POINTER,
	CHK_REC_SAME,   /* into the allocation of an earlier argument */
	CHK_REC_UNKNOWN /* not device memory the driver knows (host memory, NULL) */
} chk_rec_kind;

typedef struct chk_rec_arg {
	chk_rec_kind kind;
	char dtype[16];
	char hex[40];        /* a scalar's bytes */
	size_t offset, bytes; /* a pointer's offset into its allocation, the allocation's size */
	uint64_t before, after; /* the allocation's hashes around the launch */
	char file[64];       /* the allocation after the launch, "" when only hashed */
	int owner;           /* a pointer a struct argument holds: that argument, else -1 */
	size_t at;           /* ... and its byte there */
	unsigned same;       /* CHK_REC_SAME: the argument whose allocation it is */
} chk_rec_arg;

typedef struct chk_rec_launch {
	unsigned long long seq;
	char kernel[128], site[256];
	unsigned grid[3], block[3];
	size_t shared;
	int launch_status, sync_status;
	bool uncaptured; /* past HIPPORT_RECORD_LAUNCHES: no arguments */
	chk_rec_arg *args;
	size_t nargs;
} chk_rec_launch;

typedef struct chk_recording {
	char *dir;
	chk_rec_launch *launches;
	size_t n;
} chk_recording;

/* Reads dir/launches.log; UTIL_EINPUT naming the file and line. */
int chk_recording_read(chk_recording *out, const char *dir);
void chk_recording_dispose(chk_recording *rec);

/* The allocations' hash as hipport_record.h computes it (FNV-1a over
 * 64-bit words, then the tail bytes). */
uint64_t chk_rec_hash(const unsigned char *p, size_t n);

/* Sets the specs of kernels rec launched to their first recorded launch
 * at the spec's site (else a launch of that kernel no other spec of the
 * file has): grid, block, shared memory, scalars, counts and offsets, and
 * inputs (arg->init_from, written by chk_draft_write). What the recording
 * cannot give keeps its draft, marked. Specs of kernels the program did
 * not launch are left as drafted. */
int chk_record_apply(chk_spec *specs, size_t n, const chk_recording *rec);

/* Writes spec to path (from chk_draft_place) and copies its recorded
 * inputs beside it, to inputs/NAME/ARG.bin of path's directory. */
int chk_draft_write(chk_spec *spec, const char *path);

#endif
