/* The files git tracks under a directory of a work tree (its index), for
 * what must travel with a program that is not source: its Makefile, its
 * input files. Build outputs lying beside them are not tracked and stay. */
#ifndef HIPPORT_VCS_TRACKED_H
#define HIPPORT_VCS_TRACKED_H

#include <stddef.h>

typedef struct vcs_tracked {
	char **paths; /* relative to the work tree, sorted as the index is */
	size_t n;
} vcs_tracked;

/* Appends to out the tracked files under dir ("." for all) of the
 * repository whose work tree is root; none outside a repository. */
int vcs_tracked_under(vcs_tracked *out, const char *root, const char *dir);

void vcs_tracked_dispose(vcs_tracked *t);

#endif
