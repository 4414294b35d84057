/* What hipport sync and the review's S share: the sync run to its end. */
#ifndef HIPPORT_CMD_SYNC_H
#define HIPPORT_CMD_SYNC_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/cmd.h"

/* Syncs the port to upstream commit `to` (a tag, a branch, an id), or with
 * `to` NULL resumes the sync under way (UTIL_ENOTFOUND when none is), with
 * nothing printed; ctx holds the repository's configuration and the rules
 * already. Its summary goes into summary, one line. Returns 0 or an error
 * code with its message set; *wrote says whether it wrote the plan, the
 * session or a file, failed or not. */
int cmd_sync_run(cmd_context *ctx, const char *to, char *summary, size_t size, bool *wrote);

#endif
