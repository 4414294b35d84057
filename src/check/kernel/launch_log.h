/* A record run's launch log read back: the launches.log that share/check/
 * hipport_record.h writes into a run's directory (record.sh's
 * work/record/NAME/ref, port, ...), a "launch" line per launch (kernel,
 * site, grid, block, shared memory, statuses) followed by an "arg" line per
 * argument (a scalar's bytes; a pointer's offset into its allocation, the
 * allocation's size, its hashes before and after the launch and the
 * SEQ.ARG.bin file that holds it after), and a "printed" line for what it
 * printed (its size, hash and SEQ.printf file). Drafting specs from a recording
 * (draft_record.h) and record-and-compare (check/record) both read it here. */
#ifndef HIPPORT_CHECK_LAUNCH_LOG_H
#define HIPPORT_CHECK_LAUNCH_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum chk_rec_kind {
	CHK_REC_SCALAR,
	CHK_REC_POINTER,
	CHK_REC_SAME,   /* into the allocation of an earlier argument */
	CHK_REC_UNKNOWN /* not device memory the driver knows (host memory, NULL) */
} chk_rec_kind;

typedef struct chk_rec_arg {
	chk_rec_kind kind;
	char dtype[16];
	char hex[40];        /* a scalar's bytes, two lowercase hex digits a byte */
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
	bool uncaptured; /* past HIPPORT_RECORD_LAUNCHES: status only, no arguments */
	double time_us;  /* what it took, by events around it (one run), or -1 */
	chk_rec_arg *args;
	size_t nargs;
	size_t printed;         /* bytes the launch printed (device printf), 0 for none */
	uint64_t printed_hash;  /* their hash */
	char printed_file[64];  /* SEQ.printf that holds them, "" when not kept */
} chk_rec_launch;

typedef struct chk_recording {
	char *dir;
	chk_rec_launch *launches;
	size_t n;
	bool cut;          /* the run was stopped at HIPPORT_RECORD_TIMEOUT (dir/cut) */
	char platform[32]; /* the port's: amd or nvidia-proxy (dir/platform), else "" */
} chk_recording;

/* Reads dir/launches.log, and dir/cut and dir/platform where record.sh
 * wrote them; UTIL_EINPUT naming the file and line. */
int chk_recording_read(chk_recording *out, const char *dir);
void chk_recording_dispose(chk_recording *rec);

/* DIR/FILE of a run, one of the files its log names (SEQ.ARG.bin,
 * SEQ.printf), when it holds exactly bytes: its data, NUL-terminated
 * after them (free it); NULL when it is missing or of another size. */
char *chk_rec_file_read(const char *dir, const char *file, size_t bytes);

/* The allocations' hash as hipport_record.h computes it (FNV-1a over
 * 64-bit words, then the tail bytes): what before and after hold. */
uint64_t chk_rec_hash(const unsigned char *p, size_t n);

#endif
