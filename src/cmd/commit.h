/* What hipport commit and the review's c share: which reviewed files a
 * commit would take, whether each is validated, the message, the commit. */
#ifndef HIPPORT_CMD_COMMIT_H
#define HIPPORT_CMD_COMMIT_H

#include "check/toolchain/arch.h"
#include "check/kernel/spec_list.h"
#include "cmd/propose.h"
#include "review/message.h"
#include "review/session.h"
#include "review/validate.h"
#include "sync/state.h"

typedef struct cmd_commit_plan {
	cmd_proposals set;          /* the walk of the paths named */
	rv_session session;
	bool session_open;
	bool perf_blocks;           /* check.perfBlocks: slow kernels keep their files out */
	tc_arch_choice arch;       /* the offload arch the checks must have run for */
	chk_spec_list specs;
	port_lexer *lexer;
	an_analyzer *analyzer;
	rv_commit_file *files;      /* the reviewed files holding a port not committed yet */
	rv_proposal *reviewed;      /* their proposals of the original */
	rv_validation **validations;
	char (*blobs)[41];          /* what each holds now */
	size_t n;
	size_t refused;             /* files not validated */
	char ported_from[41];       /* the upstream commit the port follows ("" when unknown) */
	sy_state sync;              /* a sync under way (sync.n files), or none */
	bool syncing;
	char **taken;               /* the sync's files committed as upstream has them: "added PATH"... */
	const char **extra;         /* of those, the files in the working tree (paths into taken) */
	const char **removed;       /* and the files removed */
	size_t ntaken, nextra, nremoved;
	char **blocked;             /* why the sync cannot be committed yet, one line a file */
	size_t nblocked;
} cmd_commit_plan;

/* Returns 0, or an exit code after printing why. */
int cmd_commit_plan_make(cmd_context *ctx, cmd_commit_plan *plan);
void cmd_commit_plan_dispose(cmd_commit_plan *plan);

/* The upstream side of a plan (commit_upstream.c): Ported-from, and the
 * files of a sync under way; 0, or an exit code after printing why. */
int cmd_commit_plan_upstream(cmd_context *ctx, cmd_commit_plan *plan);
void cmd_commit_plan_upstream_dispose(cmd_commit_plan *plan);

/* The message (ctx->message as its summary; forced when ctx->force and some
 * file is not validated). */
int cmd_commit_message(cmd_context *ctx, const cmd_commit_plan *plan, util_buf *out);

/* Commits the plan's files with message and marks them committed in the
 * session; a negative code with the message set otherwise. */
int cmd_commit_run(cmd_context *ctx, cmd_commit_plan *plan, const char *message, char id[41], char branch[256]);

#endif
