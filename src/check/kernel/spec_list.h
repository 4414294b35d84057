/* Every kernel check spec of a repository: root/.hipport/checks/NAME.check. */
#ifndef HIPPORT_CHECK_SPEC_LIST_H
#define HIPPORT_CHECK_SPEC_LIST_H

#include "check/kernel/spec.h"

typedef struct chk_spec_list {
	chk_spec *items; /* by name */
	size_t n;
} chk_spec_list;

/* Reads them all (root ends in '/'); none when the directory is missing.
 * A malformed spec is UTIL_EINPUT naming its file. */
int chk_spec_list_load(chk_spec_list *out, const char *root);
void chk_spec_list_dispose(chk_spec_list *l);

/* The names of the specs whose source is path (at most max, into names). */
size_t chk_spec_list_covering(const chk_spec_list *l, const char *path, const char **names, size_t max);

#endif
