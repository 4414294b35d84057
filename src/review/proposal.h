/* A proposal: one file's source, its proposed HIP port, and the diff between.
 * The diff needs libgit2 initialised (git_libgit2_init) by the program. */
#ifndef HIPPORT_REVIEW_PROPOSAL_H
#define HIPPORT_REVIEW_PROPOSAL_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/analysis.h"
#include "analyze/finding.h"
#include "port/translate.h"
#include "util/buf.h"

typedef enum rv_proposal_state {
	RV_PROPOSAL_OK,
	RV_PROPOSAL_NOT_CUDA, /* found by a walk, holds no CUDA: skipped quietly */
	RV_PROPOSAL_BAD_INPUT /* unreadable, binary, too large, broken syntax */
} rv_proposal_state;

typedef struct rv_proposal {
	const char *path;    /* borrowed: as shown to the user */
	const char *fs_path; /* borrowed */
	rv_proposal_state state;
	char *message;       /* why, for BAD_INPUT */
	util_buf source;
	port_result port;
	size_t lines;        /* of the source */
	size_t additions, deletions; /* lines, from the diff */
	char blob_id[41];    /* git's blob id of the source, once computed ("" before) */
	bool from_cache;
	bool analyzed;       /* analysis holds the analyzer's hits */
	an_analysis analysis;
	size_t fixes_applied; /* fixes taken into the port */
} rv_proposal;

/* The proposal's findings (analyze/finding.h), none unless it is OK. */
int rv_proposal_findings(an_finding **out, size_t *count, const rv_proposal *p, const port_options *opts);

/* Git's blob id of data, as 40 hex digits. */
void rv_blob_id(char out[41], const char *data, size_t len);

/* Whether src holds CUDA: a CUDA header, __global__/__device__, a launch, a
 * cuda/cu API name. A cheap byte scan, used to pick files during walks. */
bool rv_proposal_looks_like_cuda(const char *src, size_t len);

/* Starts a proposal from text held in memory (an original kept by the
 * session) instead of the file. */
int rv_proposal_from_text(rv_proposal *p, const char *path, const char *fs_path, const char *text, size_t len);

/* Reads one file (the first half of rv_proposal_make). */
int rv_proposal_read(rv_proposal *p, const char *path, const char *fs_path, bool named, size_t max_size);

/* Translates a proposal that was read (the second half); nothing unless its state is OK. */
int rv_proposal_translate(rv_proposal *p, port_lexer *lexer, const port_rules *rules, const port_options *opts);

/* Runs the analyzer on a proposal that was read (before translating it). */
int rv_proposal_analyze(rv_proposal *p, an_analyzer *analyzer, port_lexer *lexer);

/* rv_proposal_translate with the fixes of the listed ids ("all", or ids
 * separated by commas) applied to the source first; the proposal must have
 * been analyzed. The places of references are those of the original source. */
int rv_proposal_translate_fixed(rv_proposal *p, port_lexer *lexer, const port_rules *rules,
				const port_options *opts, const char *fixes);

/* Reads and translates one file. Bad input is not an error of the call: it
 * sets state to RV_PROPOSAL_BAD_INPUT and message. */
int rv_proposal_make(rv_proposal *p, port_lexer *lexer, const port_rules *rules,
		     const port_options *opts, const char *path, const char *fs_path, bool named,
		     size_t max_size);

/* Counts the lines added and removed by the proposal (libgit2's buffer diff). */
int rv_proposal_count_lines(rv_proposal *p);

/* Appends the unified diff of the proposal to out ("diff --git a/P b/P"...);
 * nothing when the port is identical. */
int rv_proposal_diff(const rv_proposal *p, util_buf *out, bool color);

bool rv_proposal_changed(const rv_proposal *p);

void rv_proposal_dispose(rv_proposal *p);

#endif
