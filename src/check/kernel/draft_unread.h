/* Kernels the drafter's parse did not read: a declaration it could not
 * parse without the file's headers (a host function taking a
 * torch::optional<torch::Tensor>) can take the rest of the file with it.
 * They are drafted again from the file without its host functions. */
#ifndef HIPPORT_CHECK_KERNEL_DRAFT_UNREAD_H
#define HIPPORT_CHECK_KERNEL_DRAFT_UNREAD_H

#include <stddef.h>

#include "check/kernel/draft.h"
#include "check/kernel/spec.h"

/* Adds to specs (*n of them, drafted from src) a spec for each __global__
 * function src defines that none of them is of, drafted from src with its
 * host functions blanked (line numbers kept); *missed: the names of those
 * still without one, comma separated (malloc'd, NULL when none). */
int chk_draft_unread(chk_spec **specs, size_t *n, const char *path, const char *fs_path, const char *src,
		     size_t len, const chk_draft_options *options, char **missed);

#endif
