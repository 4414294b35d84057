/* The three-way merge of one file a sync makes (libgit2's git_merge_file),
 * as the review's decisions on the new proposal:
 *   base:   the proposal for the old upstream file (the fixes it took),
 *   ours:   the committed port (hand edits, fixes, rejected hunks),
 *   theirs: the proposal for the new upstream file (the same fixes).
 * Each hunk of the new proposal that upstream left alone keeps what the port
 * did (accepted); one upstream changed is proposed (pending); where the port
 * differs from the proposal, its lines are kept (rejected or edited), as one
 * region over the hunks they meet; where upstream changed those too, a
 * conflict holds the port's lines (or, where git merged them clean, the
 * merge, marked clean) until the engineer resolves it. */
#ifndef HIPPORT_SYNC_MERGE_H
#define HIPPORT_SYNC_MERGE_H

#include <stddef.h>

#include "review/session.h"

typedef struct sy_inputs {
	const char *base; /* NUL-terminated, each */
	size_t base_len;
	const char *ours;
	size_t ours_len;
	const char *source; /* upstream's new file */
	size_t source_len;
	const char *theirs; /* its proposal */
	size_t theirs_len;
} sy_inputs;

typedef struct sy_merge {
	rv_session_region *regions; /* beyond the proposal's hunks, by start */
	size_t nregions;
	rv_session_hunk *hunks; /* every decision, by key */
	size_t nhunks;
	size_t carried;    /* hunks upstream left alone: the port's decision stays */
	size_t proposed;   /* hunks upstream changed: to decide */
	size_t merged;     /* the port's own lines merged clean into upstream's change: to confirm */
	size_t conflicts;  /* both changed, not merged: to resolve */
	size_t edits_kept; /* hunks holding the port's own lines (edited, or a conflict's side) */
	char *result;      /* the merge, every pending hunk as proposed, every conflict as the port has it */
	size_t result_len;
} sy_merge;

/* Merges one file. UTIL_EINPUT when an input holds a line like the merge's
 * own markers. */
int sy_merge_file(sy_merge *out, const sy_inputs *in);
void sy_merge_dispose(sy_merge *m);

#endif
