/* The hunks of a proposal: the smallest line ranges where the port differs
 * from the source (libgit2's diff without context), each decided on its own,
 * and the text that results from a set of decisions. */
#ifndef HIPPORT_REVIEW_HUNKS_H
#define HIPPORT_REVIEW_HUNKS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

typedef enum rv_decision {
	RV_PENDING,
	RV_ACCEPTED, /* the port's lines */
	RV_REJECTED, /* the source's lines */
	RV_EDITED,   /* lines the engineer wrote */
	RV_CONFLICT  /* a sync's conflict: upstream and the port both changed it; holds the port's
		      * lines (its text) until resolved, and counts as undecided */
} rv_decision;

#define RV_DECISIONS 5

typedef struct rv_hunk {
	size_t old_start, old_lines; /* 0-based first line and count in the source */
	size_t new_start, new_lines; /* in the port */
	char key[17];                /* hash of both sides: finds the hunk again in a new proposal */
	char parent[17];             /* a piece of a split hunk: that hunk's key; "" for a whole hunk */
} rv_hunk;

typedef struct rv_hunks {
	rv_hunk *items;
	size_t count;
} rv_hunks;

/* The hunks between source and port (both NUL-terminated buffers). */
int rv_hunks_make(rv_hunks *out, const char *source, size_t source_len, const char *port, size_t port_len);
void rv_hunks_dispose(rv_hunks *hunks);

/* Whether line ranges [a, a + n) and [b, b + m) overlap, or touch where one
 * is empty (an insertion beside a change is part of it). */
bool rv_ranges_meet(size_t a, size_t n, size_t b, size_t m);

/* Sets h->key from its lines on both sides, as rv_hunks_make does. */
void rv_hunk_set_key(rv_hunk *h, const char *source, size_t source_len, const char *port, size_t port_len);

/* The text of source with each hunk as decided: accepted takes the port's
 * lines, edited and conflict take texts[i], pending and rejected keep the
 * source's. */
int rv_hunks_compose(util_buf *out, const char *source, size_t source_len, const char *port, size_t port_len,
		     const rv_hunks *hunks, const rv_decision *decisions, const char *const *texts);

/* A hunk split as git add -p would, as far as it goes: one piece per line,
 * the removed and added lines paired in order, and the lines one side has
 * more each a piece of its own (a deletion or an insertion). A piece's key
 * follows from its hunk's key and its place, so that the session finds its
 * decision again wherever the hunk is. */
size_t rv_hunk_pieces(const rv_hunk *h);
void rv_hunk_piece(const rv_hunk *h, size_t i, rv_hunk *out);

/* What identifies the proposal these hunks came from (a split hunk's pieces
 * count as their hunk): a reviewed mark holds for it alone. */
void rv_hunks_fingerprint(const rv_hunks *hunks, char out[17]);

/* The lines [start, start + count) of text (into out, appended). */
void rv_lines_copy(util_buf *out, const char *text, size_t len, size_t start, size_t count);

/* Whether d settles its hunk (a conflict does not, nor pending). */
static inline bool rv_decided(rv_decision d)
{
	return d != RV_PENDING && d != RV_CONFLICT;
}

/* Whether a hunk so decided holds a text of its own (edited, or a conflict's). */
static inline bool rv_has_text(rv_decision d)
{
	return d == RV_EDITED || d == RV_CONFLICT;
}

const char *rv_decision_name(rv_decision d);
/* Parses "accepted", "rejected", "edited", "conflict", "pending"; -1 if none. */
int rv_decision_parse(const char *name);

#endif
