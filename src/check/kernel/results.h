/* results.json of a bundle's run.sh (docs/checks.md has the schema): read,
 * validated and turned into session records. */
#ifndef HIPPORT_CHECK_RESULTS_H
#define HIPPORT_CHECK_RESULTS_H

#include <stddef.h>

#include "check/perf/perf.h"
#include "review/session.h"

typedef struct chk_results {
	rv_session_check *checks; /* path (the source), name, port blob, status, platform, arch, message */
	perf_timing *times;       /* each check's timing ("time"), beside checks */
	size_t n;
	char *bundle;             /* the bundle's id */
} chk_results;

/* Reads and validates path; UTIL_EINPUT naming the file and the problem. */
int chk_results_read(chk_results *out, const char *path);
void chk_results_dispose(chk_results *r);

/* The checks a results file may speak of: each name with its source. */
typedef struct chk_results_known {
	const char *const *names, *const *sources;
	size_t n;
	const char *files; /* the tree that holds every source: a bundle's port/, or the work tree */
} chk_results_known;

/* Refuses results read from path (UTIL_EINPUT naming the entry) where an
 * entry's name is no known check (NAME@TARGET of a Slurm merge counts as
 * NAME), its source is not that check's, or the source is no file inside
 * known->files: a results.json from elsewhere records nothing it could not
 * have come from. */
int chk_results_match(const chk_results *r, const char *path, const chk_results_known *known);

/* Whether status is one of pass, fail, error, no-device, skipped. */
int chk_status_valid(const char *status);

#endif
