/* What scan, diff and apply share: walk the named paths, make every
 * proposal (over threads, through the cache), report skipped files. */
#ifndef HIPPORT_CMD_PROPOSE_H
#define HIPPORT_CMD_PROPOSE_H

#include "cmd/cmd.h"
#include "review/proposal.h"
#include "vcs/walk.h"

typedef struct cmd_proposals {
	vcs_walk walk;
	rv_proposal *items; /* one per walk.files, same order */
	size_t n;
	bool named_bad;     /* a file the user named is bad input */
} cmd_proposals;

/* Applies the repository's .hipport/config (root: its work tree) to ctx's
 * options: 0, or an exit code after printing why. */
int cmd_repository_config(cmd_context *ctx, const char *root);

/* Returns 0, or an exit code after printing why. Bad files found by the walk
 * are noted on stderr and skipped; bad files the user named set named_bad. */
int cmd_proposals_make(cmd_context *ctx, cmd_proposals *out);
/* cmd_proposals_make without the rules and the proposals: every file only
 * read (what is not CUDA marked so, what the translation would refuse marked
 * bad input and noted), for the review to list at once and propose in the
 * background once it has loaded the rules (cmd_load_rules). */
int cmd_proposals_read(cmd_context *ctx, cmd_proposals *out);
/* The repository's cache of proposals for ctx's rules and options (*out
 * NULL: none, or --no-cache), the caller's to save and free. */
struct rv_cache;
void cmd_proposals_cache(cmd_context *ctx, const cmd_proposals *set, struct rv_cache **out);
void cmd_proposals_dispose(cmd_proposals *set);

/* The findings of a proposal by severity (out[AN_NOTE], out[AN_WARNING],
 * out[AN_ERROR]), less the suppressed ones and those whose fixes the
 * proposal took (taken: finding ids or "all", NULL for none), and when marks
 * is not NULL the worst per source line (*marks, malloc'd: its severity + 1,
 * or 0). */
int cmd_count_findings(cmd_context *ctx, const rv_proposal *p, const char *taken, size_t out[3],
		       unsigned char **marks);

/* The proposal of original (the session's copy of now's file) analyzed and
 * translated with fixes (ids, "all", or NULL for none), into out; on error
 * out is the caller's to dispose. */
int cmd_proposal_fixed(const cmd_context *ctx, const rv_proposal *now, const util_buf *original, const char *fixes,
		       rv_proposal *out, port_lexer *lexer, an_analyzer *analyzer);

/* The proposal a file's review is about once decisions were taken on it: of
 * its original (kept by the session), analyzed and translated with the fixes
 * chosen for it, into out. */
struct rv_session;
struct rv_session_file;
int cmd_proposal_reviewed(cmd_context *ctx, const struct rv_session *s, const struct rv_session_file *rec,
			  const rv_proposal *now, rv_proposal *out, port_lexer *lexer, an_analyzer *analyzer);

#endif
