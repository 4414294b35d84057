/* A ROCm toolchain root made by tools/rocm-root (docs/rocm-root.md):
 * HIPPORT_ROCM_ROOT names its directory, whose bin/ holds hipcc, hipconfig,
 * clang and the rest, each running the root's own. While it is set, that
 * bin/ comes first in PATH, so hipport and every script and build it starts
 * find the same hipcc. */
#ifndef HIPPORT_CHECK_TOOLCHAIN_ROOT_H
#define HIPPORT_CHECK_TOOLCHAIN_ROOT_H

#include <stdbool.h>

/* The root's directory ($HIPPORT_ROCM_ROOT), or NULL when unset or empty. */
const char *tc_root_dir(void);

/* Puts the root's bin/ first in PATH. 0 when unset or done; UTIL_EINPUT,
 * naming the variable, when it has no bin/hipcc; UTIL_ENOMEM. */
int tc_root_activate(void);

/* Whether path is one of the root's tools (in its bin/). */
bool tc_root_holds(const char *path);

#endif
