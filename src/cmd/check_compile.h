/* The compile step of hipport check. */
#ifndef HIPPORT_CMD_CHECK_COMPILE_H
#define HIPPORT_CMD_CHECK_COMPILE_H

#include "cmd/propose.h"
#include "review/session.h"

/* Compiles every reviewed file of set (the working tree holding what its
 * decisions wrote) with hipcc for arch (NULL: each is recorded skipped),
 * with -I for includes (directories relative to the work tree, space
 * separated) and the compile database's flags; prints a line per file,
 * records the results in session; *failed counts those that did not pass.
 * A negative code when hipport itself failed. */
int cmd_check_compile(cmd_context *ctx, const cmd_proposals *set, rv_session *session, const char *arch,
		      const char *includes, size_t *failed);

#endif
