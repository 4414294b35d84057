/* A kernel's definitions as its source spells them: what the port changed
 * of the kernel itself, so that a failure of a kernel the port left as it
 * was is not blamed on the port (docs/checks.md, "Blame the right side"). */
#ifndef HIPPORT_CHECK_KERNEL_SOURCE_H
#define HIPPORT_CHECK_KERNEL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Appends to out every __global__ definition of kernel (its last name:
 * ns::k<T> is k) in src, from __global__ to the body's closing brace;
 * declarations without a body are left out. */
void chk_kernel_definitions(util_buf *out, const char *src, size_t len, const char *kernel);

/* Whether kernel is defined in both texts, the same in each, and so is
 * every __device__ function of the two (what the kernel may call; the
 * headers it includes are not looked at). */
bool chk_kernel_unchanged(const char *orig, size_t orig_len, const char *port, size_t port_len, const char *kernel);

#endif
