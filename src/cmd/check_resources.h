/* The resources table of hipport check --resources and the review's build
 * view: each kernel's registers, scratch, LDS and waves per SIMD, with what
 * a launch bound and each of the file's fixes change. */
#ifndef HIPPORT_CMD_CHECK_RESOURCES_H
#define HIPPORT_CMD_CHECK_RESOURCES_H

#include <stdio.h>

#include "cmd/check_compile.h"

/* To f, from output (a compile of p with env->o.resources): a row per
 * kernel; under a kernel that spills, the row with a launch bound; under a
 * kernel whose figures a fix of the file changes, the row of the file
 * compiled with that fix the other way (taken or not, as the session has
 * it). Nothing when the compile reported no kernel. */
int cmd_resources_print(cmd_compile_env *env, const rv_proposal *p, const rv_session *session, const char *output,
			FILE *f);

#endif
