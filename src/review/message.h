/* The message of a commit of validated ports: what a reviewer needs to
 * trust it without rerunning anything. */
#ifndef HIPPORT_REVIEW_MESSAGE_H
#define HIPPORT_REVIEW_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "review/proposal.h"
#include "review/session.h"
#include "review/validate.h"
#include "util/buf.h"

typedef struct rv_commit_file {
	const char *path;
	const rv_proposal *proposal;   /* the reviewed proposal (of the original): rules and fixes */
	const rv_session_file *rec;
	size_t edited;                 /* hunks edited by hand */
	size_t rejected;               /* hunks left as the original */
	size_t bulk;                   /* hunks accepted in bulk (rename only) */
	size_t findings[3];            /* left open, by severity (indexed by an_severity) */
	const rv_validation *validation;
} rv_commit_file;

/* Where the port stands with upstream: the trailers Ported-from (the
 * upstream commit the port follows) and, for a sync, Synced-from: OLD..NEW
 * with the files taken as upstream has them. */
typedef struct rv_commit_upstream {
	const char *ported_from;  /* commit id, or NULL */
	const char *synced_from;  /* a sync's old upstream commit (ported_from is its new one), or NULL */
	const char *const *taken; /* "updated PATH", "added PATH", "removed PATH" */
	size_t ntaken;
} rv_commit_upstream;

/* summary: the first line (NULL: "Port N files to HIP", or for a sync
 * "Sync the port with upstream NEW"); then per file the
 * rules applied by family, fixes taken, hand edits, findings left open and
 * checks; then the trailers Ported-by, Target-HIP, Target-Torch (when a
 * file includes PyTorch's headers and target_torch is not NULL) and
 * Validated-on (one per arch where checks ran, "-proxy" for NVIDIA proxy
 * runs; "none (forced)" when forced), and Perf: per kernel check that ran
 * below the performance budget. */
int rv_commit_message(util_buf *out, const char *summary, const rv_commit_file *files, size_t n,
		      const char *target_hip, const char *target_torch, bool forced, const rv_commit_upstream *up);

#endif
