/* The files as HEAD's commit holds them: the original of a file that apply,
 * or the engineer, has since changed in the work tree (a ported Makefile,
 * an input file), for what must be built as the original. */
#ifndef HIPPORT_VCS_HEAD_H
#define HIPPORT_VCS_HEAD_H

#include "util/buf.h"

typedef struct vcs_head vcs_head;

/* *out is NULL outside a repository and on a branch without commits. */
int vcs_head_open(vcs_head **out, const char *root);
/* path (relative to the work tree) as HEAD holds it into out (replacing
 * its contents); UTIL_ENOTFOUND when HEAD has no such file. */
int vcs_head_read(util_buf *out, vcs_head *head, const char *path);
void vcs_head_free(vcs_head *head);

#endif
