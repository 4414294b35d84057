/* The review session: per file, the original's blob id (the original itself
 * is written to the repository's object database), each decided hunk by its
 * key, and what the working tree should hold. It lives in
 * .git/hipport/session.json; every change is written atomically before the
 * working tree, so that a kill at any moment loses no decision. */
#ifndef HIPPORT_REVIEW_SESSION_H
#define HIPPORT_REVIEW_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "review/check_time.h"
#include "review/hunks.h"
#include "util/buf.h"

typedef struct rv_session_hunk {
	char key[17];
	rv_decision decision; /* accepted, rejected or edited (pending ones are not kept) */
	char *text;           /* the edited lines, for edited; the port's lines, for conflict */
	char *base;           /* a conflict's lines in the proposal it was ported from (shown beside) */
	bool clean;           /* a conflict git merged clean (upstream changed the hunk, the port's
			       * lines merged in): its text is the merge, to confirm */
	char bulk[16];        /* accepted in bulk (B in the review): the kind, "rename-only"; "" by hand */
} rv_session_hunk;

/* A range of the original a sync decided as one hunk (sync/merge.h): the
 * engineer's change there spans more than one hunk of the proposal, or none.
 * It takes in the proposal's hunks it overlaps; key is its key then. */
typedef struct rv_session_region {
	size_t start, lines; /* 0-based lines of the original */
	char key[17];
} rv_session_region;

typedef struct rv_session_file {
	char *path;        /* relative to the work tree */
	char base[41];     /* blob id of the original */
	char written[41];  /* blob id of what the last decision wrote */
	char previous[41]; /* blob id of the file before that write */
	rv_session_hunk *hunks;
	size_t nhunks;
	char *fixes;       /* finding ids whose fixes the proposal takes, comma separated, or NULL */
	char committed[41]; /* blob id of what hipport commit committed, or "" */
	char commit[41];    /* that commit's id, or "" */
	char (*splits)[17]; /* the keys of the hunks split into pieces (decided each on its own) */
	size_t nsplits;
	char reviewed[17];  /* marked reviewed: the fingerprint of the proposal's hunks then, or "" */
	rv_session_region *regions; /* what a sync decided beyond the proposal's hunks */
	size_t nregions;
} rv_session_file;

/* A kernel check's last result on a file, recorded against the blob id of
 * the port it ran on (hipport check, or --import of a bundle's results). */
typedef struct rv_session_check {
	char *path;     /* the CUDA file, relative to the work tree */
	char *name;     /* the check */
	char port[41];  /* blob id of the port checked */
	char *kernel;   /* the kernel checked, NULL for a whole file's check */
	char scope[41]; /* id of what the kernel's check depends on (review/check_scope.h), or "" */
	char *status;   /* pass, fail, error, no-device, skipped */
	char *platform; /* amd, nvidia-proxy */
	char *arch;     /* gfx90a, sm_90, or "" */
	char *message;
	rv_check_time time; /* its times, when both sides were timed */
} rv_session_check;

typedef struct rv_session {
	char *git_dir;
	char *path; /* .git/hipport/session.json */
	rv_session_file *files;
	size_t nfiles;
	rv_session_check *checks;
	size_t nchecks;
} rv_session;

typedef enum rv_file_state {
	RV_STATE_PENDING,  /* nothing decided */
	RV_STATE_PARTIAL,  /* some hunks decided */
	RV_STATE_ACCEPTED, /* every hunk decided */
	RV_STATE_STALE,    /* changed outside hipport since the last decision */
	RV_STATE_COMMITTED /* committed by hipport commit, and unchanged since */
} rv_file_state;

/* Loads the session of the repository whose .git directory is git_dir (an
 * empty one when there is none yet); UTIL_EINPUT naming the file when it is
 * damaged. */
int rv_session_open(rv_session *out, const char *git_dir);
void rv_session_dispose(rv_session *s);
/* Parses session text into out (zeroed, or as left by rv_session_open's
 * set-up); UTIL_EINPUT naming `name` when it is damaged (out then holds what
 * was parsed: dispose it). */
int rv_session_parse(rv_session *out, const char *text, size_t len, const char *name);

rv_session_file *rv_session_find(const rv_session *s, const char *path);

/* The result of check `name` on the file at path, or NULL. */
const rv_session_check *rv_session_check_find(const rv_session *s, const char *path, const char *name);

/* The original text of a file the session knows (from the object database). */
int rv_session_original(const rv_session *s, const rv_session_file *f, util_buf *out);

/* The decision of each hunk (texts[i] the edited text, borrowed), by key.
 * A split hunk (when the list has it whole) is pending while a piece is,
 * accepted or rejected when every piece is, and edited otherwise (with no
 * text: rv_session_hunks gives its pieces, which compose the file). */
void rv_session_decisions(const rv_session_file *f, const rv_hunks *hunks, rv_decision *decisions,
			  const char **texts);

/* The hunks as the file's review has them: the proposal's hunks a region
 * of a sync overlaps taken into it, and each split hunk replaced by its
 * pieces (rv_hunk_piece). out is allocated; f may be NULL. */
int rv_session_hunks(const rv_session_file *f, const rv_hunks *hunks, rv_hunks *out);
bool rv_session_split_has(const rv_session_file *f, const char *key);

/* s in the review: splits hunk `index` of hunks (the file's, as
 * rv_session_hunks gives them) into its pieces, which take its decision; or,
 * when it is a piece, joins its hunk again, which takes its pieces'
 * decisions (edited, with the lines they make, when they differ). What the
 * file holds does not change. Saved at once. UTIL_EINPUT for a hunk of one
 * line, or an edited one. */
int rv_session_split(rv_session *s, const char *path, const char *fs_path, const char *original,
		     size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index);

/* Marks the file reviewed, or not, for the proposal whose hunks these are
 * (a new proposal, after a rule or fix changed, is not reviewed). Saved at
 * once. */
int rv_session_mark_reviewed(rv_session *s, const char *path, const char *fs_path, const char *original,
			     size_t original_len, const rv_hunks *hunks, bool reviewed);
bool rv_session_reviewed(const rv_session_file *f, const rv_hunks *hunks);

/* Whether a file the session knows changed outside hipport: it holds neither
 * what the last decision wrote nor (after an interrupted one) what that
 * replaced, nor the original when nothing was written. */
bool rv_session_stale(const rv_session_file *f, const char *tree, size_t tree_len);

/* Where a file stands, given what the working tree holds now. */
rv_file_state rv_session_state(const rv_session_file *f, const rv_hunks *hunks, const char *tree, size_t tree_len);

/* Decides hunk `index` of the proposal made from `original` (port: its
 * translation) for the file at fs_path (path relative to the work tree), then
 * writes the file: the original with every decision applied. The session is
 * saved first. UTIL_EINPUT when the file changed outside hipport. */
int rv_session_decide(rv_session *s, const char *path, const char *fs_path, const char *original,
		      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index,
		      rv_decision decision, const char *text);

/* rv_session_decide, putting back a decision as it was recorded (an
 * edit's text, a conflict with its base): undo. */
int rv_session_decide_as(rv_session *s, const char *path, const char *fs_path, const char *original,
			 size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks, size_t index,
			 const rv_session_hunk *was);

/* Decides every hunk without a decision (accepted by apply, or A and R in the
 * review) as rv_session_decide does, in one save; the file is written too
 * unless write is false (the caller writes exactly the composed text then:
 * the original with every decision applied, into *composed when not NULL). */
int rv_session_decide_pending(rv_session *s, const char *path, const char *fs_path, const char *original,
			      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks,
			      rv_decision decision, bool write, util_buf *composed);

/* Accepts hunks indexes[0..n) of hunks in bulk, recorded with their kind
 * ("rename-only"), then writes the file once, as rv_session_decide does. */
int rv_session_decide_bulk(rv_session *s, const char *path, const char *fs_path, const char *original,
			   size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks,
			   const size_t *indexes, size_t n, const char *kind);
/* Whether hunk h was accepted in bulk (a split one: each of its pieces). */
bool rv_session_hunk_bulk(const rv_session_file *f, const rv_hunk *h);

/* Adds a finding id to the fixes the file's proposal takes (the proposal is
 * then made again; the fix's changes are hunks to decide like any other).
 * The original is kept as for a decision. */
int rv_session_choose_fix(rv_session *s, const char *path, const char *fs_path, const char *original,
			  size_t original_len, const char *id);

/* A stale file starts again from what it holds now: that becomes its
 * original; decisions stay, and apply to the hunks of the new proposal with
 * the same keys. Saved at once. */
int rv_session_rebase(rv_session *s, const char *path, const char *text, size_t len);

/* Writes what an interrupted decision left unwritten: the file still holds
 * what it held before the last decision. 1 when it was rewritten. */
int rv_session_resume(rv_session *s, const char *path, const char *fs_path, const char *original,
		      size_t original_len, const char *port, size_t port_len, const rv_hunks *hunks);

/* The decision recorded for the hunk with key (its text, a conflict's base
 * and whether it merged clean), or NULL while it is pending. */
const rv_session_hunk *rv_session_hunk_of(const rv_session_file *f, const char *key);

/* What a sync decided for one file (sync/merge.c makes it). */
typedef struct rv_session_synced {
	const char *original; /* upstream's new file: the new original */
	size_t original_len;
	const char *port; /* its proposal, fixes taken */
	size_t port_len;
	const char *fixes; /* the fixes the proposal takes, or NULL */
	const rv_session_region *regions;
	size_t nregions;
	const rv_session_hunk *hunks; /* decided hunks (and regions), by key */
	size_t nhunks;
} rv_session_synced;

/* Replaces what the session knows of a file with what a sync decided: the
 * new original is stored, the record saved, then the file written (the
 * original with those decisions); a kill between the two is resumed as a
 * decision's is. The file must hold `holds` (blob id: the committed port),
 * or already what the sync writes. */
int rv_session_sync_file(rv_session *s, const char *path, const char *fs_path, const rv_session_synced *in,
			 const char *holds);

/* Marks a file committed (commit: the commit's id) with what it holds now
 * (blob: its blob id); not saved: rv_session_save does, once for all. */
int rv_session_mark_committed(rv_session *s, const char *path, const char *blob, const char *commit);
int rv_session_save(const rv_session *s);

/* Drops what the session knows of a file (apply --undo put its original
 * back); saved at once. */
int rv_session_forget(rv_session *s, const char *path);

const char *rv_file_state_name(rv_file_state state);

/* Frees what a check record holds (not the record). */
void rv_session_check_dispose(rv_session_check *c);

/* Records check results (copied), replacing earlier ones of the same file
 * and check; saved at once. */
int rv_session_record_checks(rv_session *s, const rv_session_check *checks, size_t n);

/* Holds the checks whose names start with prefix to no content (a blob id
 * of zeros): results to run again. Saved at once when any changed. */
int rv_session_outdate_checks(rv_session *s, const char *prefix);

#endif
