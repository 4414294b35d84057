/* What the views of the review share, owned by the core: the files with
 * their hunks and decisions, the selected file and the hunk at the cursor,
 * the decisions to undo, the last compile check, and the hooks through which
 * the command layer builds, drafts specs, commits and syncs. Decisions go
 * through the session (saved before the file is written); errors are
 * returned. */
#ifndef HIPPORT_TUI_MODEL_H
#define HIPPORT_TUI_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "port/lex.h"
#include "review/hunks.h"
#include "review/proposal.h"
#include "review/session.h"
#include "util/buf.h"

/* One line of text: where it starts and how long it is (without its end). */
typedef struct tui_line {
	const char *text;
	size_t len;
} tui_line;

/* The lines of a hunk's edited text (pointing into the session's text). */
typedef struct tui_edit {
	tui_line *lines;
	size_t n;
} tui_edit;

typedef struct tui_file {
	rv_proposal *p;       /* the proposal reviewed (of the original once decided); borrowed;
			       * until ready, the file as read (its path and source only) */
	bool ready;           /* its proposal is here: hunks, lines, findings */
	char *why;            /* not ready and never will be: why the proposal failed */
	rv_hunks hunks;
	rv_decision *decisions;
	tui_edit *edits;      /* per hunk: what an edited one holds instead of the proposal (a
			       * conflict of a sync: the port's lines) */
	tui_edit *bases;      /* per hunk: a conflict's lines in the proposal before the sync */
	bool *clean;          /* per hunk: a conflict git merged clean, to confirm */
	size_t side_hunk;     /* the conflict whose other side the right pane shows (t) */
	int side;             /* what it shows of it: tui_conflict_side */
	tui_line *old_lines, *new_lines;
	size_t nold, nnew;
	port_token *old_tokens, *new_tokens; /* for syntax colour; NULL without */
	size_t nold_tokens, nnew_tokens;
	rv_file_state state;
	bool validated;       /* accepted, and its checks passed on what the tree holds */
	bool reviewed;        /* marked reviewed (m) for this proposal */
	size_t findings[3];   /* by severity */
	const unsigned char *marks; /* per source line: the worst finding's severity + 1, or 0; borrowed */
} tui_file;

/* What a worker thread prepares of a file's proposal (its whole hunks, the
 * lines and tokens of both sides) so that the UI thread only joins it with
 * the session; nothing in it touches the session or the model. */
typedef struct tui_prepared {
	rv_hunks hunks;
	tui_line *old_lines, *new_lines;
	size_t nold, nnew;
	port_token *old_tokens, *new_tokens;
	size_t nold_tokens, nnew_tokens;
} tui_prepared;

/* Prepares p with lexer (one per thread; NULL: no tokens); safe on any
 * thread that owns lexer and only reads p. */
int tui_file_prepare(tui_prepared *out, const rv_proposal *p, port_lexer *lexer);
void tui_prepared_dispose(tui_prepared *prep);

/* b: a compile check of the selected file, run by the command layer. */
typedef struct tui_build_error {
	char *where;      /* "src/k.cu:12:7" as the compiler printed it */
	char *text;       /* "error: ..." */
	size_t line;      /* in the file as the working tree holds it; 0 when the error is in another file */
} tui_build_error;

typedef struct tui_build_result {
	char *status;     /* pass, fail, error, skipped */
	char *summary;
	tui_build_error *errors;
	size_t nerrors;
	char *resources;  /* each kernel's registers, spills, LDS and waves per SIMD: a table's lines, or NULL */
} tui_build_result;

void tui_build_result_dispose(tui_build_result *r);

/* c: what a commit would take, from the command layer. */
typedef struct tui_commit_info {
	char **lines;     /* per file: its path and whether it is validated, or why not */
	size_t nlines;
	char *message;    /* the generated message, editable */
	size_t nfiles, refused;
} tui_commit_info;

void tui_commit_info_dispose(tui_commit_info *info);

/* What the command layer does for the review; a hook left NULL is not
 * offered. Each returns 0 or an error code with its message set. */
typedef struct tui_hooks {
	void *payload;
	/* makes the proposal of file `index` again (after a fix was chosen) */
	int (*repropose)(void *payload, size_t index, rv_proposal **out);
	/* compile-checks file `index`, telling watch of the output as it comes */
	int (*build)(void *payload, size_t index, void (*watch)(const char *data, size_t len, void *watch_payload),
		     void *watch_payload, tui_build_result *out);
	/* the paths of the kernel check specs of file `index` (malloc'd, each and the
	 * array), drafted first (*drafted of them) where the file has none */
	int (*specs)(void *payload, size_t index, char ***paths, size_t *n, size_t *drafted);
	/* what a commit of the reviewed files would be; then making it with a message */
	int (*commit_prepare)(void *payload, tui_commit_info *out);
	int (*commit_run)(void *payload, const char *message, char *done, size_t size);
	/* syncs the port to upstream commit `to`, or resumes the sync under way
	 * (to NULL; UTIL_ENOTFOUND when none is), its summary into summary; 1
	 * when it wrote files: the review ends its loop (tui_core_done), and the
	 * command layer makes it again from them, as a new review would be */
	int (*sync)(void *payload, const char *to, char *summary, size_t size);
} tui_hooks;

/* A decision as it was before a key changed it: what u restores, found by
 * the hunk's key (a split or a join moves hunks). */
typedef struct tui_undo {
	size_t file, hunk;
	char key[17];
	rv_decision decision;
	char *text, *base; /* an edit's text, a conflict's sides (owned) */
	bool clean;
} tui_undo;

typedef struct tui_model {
	rv_session *session;
	port_lexer *lexer;    /* tokens for syntax colour, or NULL; borrowed */
	const char *root;     /* the work tree, for the title */
	tui_file *files;
	size_t nfiles;
	size_t nready;        /* files ready, or failed: the rest are computed in the background */
	size_t selected;      /* the file */
	size_t hunk;          /* the hunk at the cursor in the diff */
	tui_undo *undo;
	size_t nundo;
	size_t build_file;    /* the file of the last compile check, and its result */
	tui_build_result build;
	tui_hooks hooks;
} tui_model;

/* Sets up the model over files whose proposals are still to come
 * (files[i]: the file as read, borrowed, shown by its path until then) and
 * the session. */
int tui_model_init(tui_model *m, rv_session *session, port_lexer *lexer, const char *root, rv_proposal **files,
		   size_t count);
void tui_model_dispose(tui_model *m);
/* File `index` reviewed from its proposal p (borrowed) with what a worker
 * prepared of it (taken: *prep is left empty), its findings by severity
 * and its marks per source line (borrowed, may be NULL); hunks, decisions
 * and state come from the session here. */
int tui_model_ready(tui_model *m, size_t index, rv_proposal *p, tui_prepared *prep, const size_t findings[3],
		    const unsigned char *marks);
/* File `index` will not be ready: its proposal could not be made (why). */
int tui_model_failed(tui_model *m, size_t index, const char *why);

/* The selected file, NULL when there is none. */
tui_file *tui_model_current(tui_model *m);
/* The first pending hunk of f from `from` on, wrapping; `from` when none is. */
size_t tui_model_first_pending(const tui_file *f, size_t from);
size_t tui_model_pending(const tui_file *f);

/* Decides hunk `index` of the selected file (text: an edited one's lines);
 * remembered for undo when remember is set. */
int tui_model_decide(tui_model *m, size_t index, rv_decision d, const char *text, bool remember);
/* Decides every pending hunk of the selected file; *n of them were. */
int tui_model_decide_pending(tui_model *m, rv_decision d, size_t *n);
/* Whether hunk `index` of f only renames: every change in it is a rule's
 * rename (a converted reference with a HIP name and no call template), it
 * changes something, and no finding is on its lines. What a fix or an
 * inserted line changes is not a rename. */
bool tui_model_rename_only(const tui_file *f, size_t index);
/* B: the pending rename-only hunks of every file (not stale): how many, in
 * how many files; then accepting them all, each file written once and its
 * hunks recorded as accepted in bulk ("rename-only"); each is remembered
 * for undo. */
void tui_model_bulk_count(const tui_model *m, size_t *hunks, size_t *files);
int tui_model_accept_bulk(tui_model *m, size_t *hunks, size_t *files);
/* Puts the last remembered decision back (*undone: where, and what it is
 * now); 1 when there is none. UTIL_ENOTFOUND when its hunk was split or
 * joined since. */
int tui_model_undo(tui_model *m, tui_undo *undone);
/* s: splits hunk `index` of the selected file into a hunk per line, or
 * joins the hunk it is a piece of; *at is where the cursor goes (the first
 * piece, or the joined hunk). */
int tui_model_split(tui_model *m, size_t index, size_t *at);
/* m: the selected file marked reviewed, or not. */
int tui_model_mark_reviewed(tui_model *m, bool reviewed);
/* Whether a file is left to review: a hunk undecided, or errors or
 * warnings found and the file not marked reviewed; a file whose proposal
 * is still being computed is too. */
bool tui_model_unfinished(const tui_file *f);
/* File `index` reviewed from a new proposal p (borrowed): a fix was taken. */
int tui_model_repropose(tui_model *m, size_t index, rv_proposal *p);
/* The files' states from what the working tree holds now. */
void tui_model_refresh_states(tui_model *m);

#endif
