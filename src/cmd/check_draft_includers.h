/* Kernels a header defines but does not launch, drafted from the sources
 * of the repository that include it: the spec then checks the kernel in
 * the translation unit that launches it, with that launch's template
 * arguments, geometry and sizes (a kernel library's headers, launched from
 * a runner or a unity build's .cu). */
#ifndef HIPPORT_CMD_CHECK_DRAFT_INCLUDERS_H
#define HIPPORT_CMD_CHECK_DRAFT_INCLUDERS_H

#include <stddef.h>

#include "check/kernel/draft.h"
#include "util/buf.h"
#include "vcs/walk.h"

/* Reads the original of a file of the repository into out. */
typedef int (*cmd_draft_read_fn)(util_buf *out, const vcs_file *f, void *payload);

/* For each spec of *specs drafted without a launch (launch NULL), the
 * specs that f's includers (all's files whose #include names f, directly
 * or through up to two more headers, nearest first) draft for the same
 * kernel from their launches replace it. *specs and *n are updated; a
 * spec no includer launches is kept. */
int cmd_draft_from_includers(chk_spec **specs, size_t *n, const vcs_file *f, const vcs_walk *all,
			     cmd_draft_read_fn read, void *payload, const chk_draft_options *options);

#endif
