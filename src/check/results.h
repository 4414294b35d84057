/* results.json of a bundle's run.sh (docs/checks.md has the schema): read,
 * validated and turned into session records. */
#ifndef HIPPORT_CHECK_RESULTS_H
#define HIPPORT_CHECK_RESULTS_H

#include <stddef.h>

#include "review/session.h"

typedef struct chk_results {
	rv_session_check *checks; /* path (the source), name, port blob, status, platform, arch, message */
	size_t n;
	char *bundle;             /* the bundle's id */
} chk_results;

/* Reads and validates path; UTIL_EINPUT naming the file and the problem. */
int chk_results_read(chk_results *out, const char *path);
void chk_results_dispose(chk_results *r);

/* Whether status is one of pass, fail, error, no-device, skipped. */
int chk_status_valid(const char *status);

#endif
