/* A kernel's file without its host functions: what a kernel check compiles
 * when the file as written does not build (host code calling an API the
 * toolkit removed, a host compiler's error) while its kernels would. */
#ifndef HIPPORT_CHECK_KERNEL_HOST_FREE_H
#define HIPPORT_CHECK_KERNEL_HOST_FREE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Writes src to out with each host function at namespace scope made a
 * declaration (its body left out), or left out whole where a declaration
 * would not compile (a member defined out of its class, an operator, a
 * specialisation); a body holding a directive stays. Every newline is kept,
 * so compilers' line numbers hold. Returns whether anything was left out. */
bool chk_source_host_free(util_buf *out, const char *src, size_t len);

/* The name the host-free copy of path has beside it: foo.cu is
 * foo.hipport-kernels.cu (the same directory, so its quoted includes hold). */
void chk_host_free_path(util_buf *out, const char *path);

#endif
