/* The compile step of hipport check. */
#ifndef HIPPORT_CMD_CHECK_COMPILE_H
#define HIPPORT_CMD_CHECK_COMPILE_H

#include "analyze/compile_db.h"
#include "check/toolchain/compile.h"
#include "check/toolchain/toolchain.h"
#include "cmd/propose.h"
#include "review/session.h"
#include "vcs/config.h"

/* What every compile of one walk shares: the toolchain, the flags, the cache. */
typedef struct cmd_compile_env {
	const cmd_proposals *set;
	char *includes;          /* check.includes (or include/), space separated */
	char *flags;             /* check.flags, or NULL */
	tc_toolchain tc;
	an_compile_db *db;
	util_buf cache;
	char digest[41];
	tc_compile_options o;   /* o.watch may be set to stream the compiler's output */
	const cmd_context *ctx;  /* for --single-source: files are hipified before hipcc */
	port_lexer *lexer;       /* likewise, or NULL */
} cmd_compile_env;

/* Reads the repository's check.includes and check.flags, finds the toolchain. */
int cmd_compile_env_open(cmd_compile_env *env, cmd_context *ctx, const cmd_proposals *set, const char *arch);
void cmd_compile_env_close(cmd_compile_env *env);

/* The sources read again (the review changes them between compiles). */
void cmd_compile_env_refresh(cmd_compile_env *env);

/* Whether hipcc can check the file at all: not for Triton (Python) files
 * and build files, which the review validates hunk by hunk. */
bool cmd_compile_applies(const char *path);

/* Whether p is a file to compile: reviewed, its working tree holding what
 * its decisions wrote. */
bool cmd_compile_wanted(const rv_session *session, const rv_proposal *p);

/* Compiles text in place of p's file (a temporary copy beside nothing, that
 * finds p's quoted includes next to p), or p's file when text is NULL;
 * records nothing (out: dispose it). */
int cmd_compile_text(cmd_compile_env *env, const rv_proposal *p, const util_buf *text, tc_compile_result *out);

/* Compiles p and records the result in session (out: dispose it). */
int cmd_compile_one(cmd_compile_env *env, const rv_proposal *p, rv_session *session, tc_compile_result *out);

/* The include directories of the sources, relative to the work tree (root
 * ends in '/'), space separated: check.includes, else include/ where it
 * exists (free it); NULL when out of memory. */
char *cmd_check_includes(const char *root, const vcs_config *cfg);

/* Compiles every reviewed file of set that only lists (all when only is
 * NULL), the working tree holding what its decisions wrote, with hipcc for arch (NULL: each is recorded skipped),
 * with -I for includes (directories relative to the work tree, space
 * separated) and the compile database's flags; prints a line per file,
 * records the results in session; *failed counts those that did not pass.
 * The flags: -I for check.includes, check.flags, the compile database's.
 * A negative code when hipport itself failed. */
int cmd_check_compile(cmd_context *ctx, const cmd_proposals *set, const vcs_walk *only, rv_session *session,
		      const char *arch, size_t *failed);

#endif
