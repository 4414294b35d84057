/* What a written bundle holds, read back from its lists: bundle.conf's id,
 * checks.list (one line per spec check) and records.list (one per program
 * recorded). Slurm's plan and --import read a bundle through it. */
#ifndef HIPPORT_CHECK_BUNDLE_LIST_H
#define HIPPORT_CHECK_BUNDLE_LIST_H

#include <stddef.h>

/* One item of a bundle: a spec check (checks.list) or a record run (records.list). */
typedef struct bundle_item {
	char *name;      /* the check's name, or the recorded directory */
	char *source, *kernel, *port_blob; /* checks only */
	unsigned timeout; /* seconds, checks only */
	char *origin;    /* records only: where its build and run came from ("config" in a list of 3 columns) */
	int record;
} bundle_item;

typedef struct bundle_list {
	bundle_item *items; /* checks first, then records: run.sh's HIPPORT_ITEMS order */
	size_t nitems, nchecks;
	char *bundle_id;
} bundle_list;

/* Reads bundle dir's lists; UTIL_EINPUT naming the file when dir is no bundle. */
int bundle_list_read(bundle_list *out, const char *dir);
void bundle_list_dispose(bundle_list *list);

/* The spec check called name, or NULL. */
const bundle_item *bundle_list_check(const bundle_list *list, const char *name);

#endif
