/* A sync under way: upstream's old and new commits, and per file what the
 * sync does and whether it is done. It lives in .git/hipport/sync.json,
 * written atomically after each file, so that a killed sync resumes where
 * it stopped and hipport commit knows what to commit. */
#ifndef HIPPORT_SYNC_STATE_H
#define HIPPORT_SYNC_STATE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum sy_kind {
	SY_MERGE,  /* changed upstream and in the port: merged into the review */
	SY_TAKE,   /* changed upstream, left alone by the port: upstream's new file */
	SY_ADD,    /* new upstream: written, and proposed fresh */
	SY_DELETE, /* removed upstream, left alone by the port: removed */
	SY_REMOVE, /* removed upstream, changed by the port: proposed for removal */
	SY_BY_HAND, /* not a file the review takes, changed on both sides and conflicting */
	SY_TEXT     /* not a file the review takes, changed on both sides, merged clean */
} sy_kind;

typedef enum sy_decision {
	SY_UNDECIDED,
	SY_REMOVED, /* hipport sync remove */
	SY_KEPT     /* hipport sync keep: as the working tree holds it */
} sy_decision;

typedef struct sy_file {
	char *path;
	sy_kind kind;
	bool done;             /* what the sync writes is written */
	sy_decision decision;  /* of a removal, or of a merge by hand */
	size_t carried, proposed, merged, conflicts, edits_kept; /* a merge's, as sync/merge.h counts them */
} sy_file;

typedef struct sy_state {
	char *path; /* .git/hipport/sync.json */
	char from[41], to[41]; /* upstream's old and new commits */
	char head[41];         /* the port's commit the sync started from */
	sy_file *files;
	size_t n;
} sy_state;

/* Loads the sync under way in git_dir: 1, 0 when none (out then empty,
 * with its path set), UTIL_EINPUT naming the file when it is damaged. */
int sy_state_open(sy_state *out, const char *git_dir);
int sy_state_save(const sy_state *s);
/* The sync is over (committed, or given up): the file goes. */
int sy_state_finish(const sy_state *s);
void sy_state_dispose(sy_state *s);

sy_file *sy_state_find(const sy_state *s, const char *path);
/* Adds a file (path copied); NULL when out of memory. */
sy_file *sy_state_add(sy_state *s, const char *path, sy_kind kind);

/* What is still open: files not done, removals and merges by hand not
 * decided. */
size_t sy_state_open_files(const sy_state *s);

const char *sy_kind_name(sy_kind kind);

#endif
