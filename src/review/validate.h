/* Whether a file of the review can be committed: every hunk decided, the
 * file holding what the decisions wrote, its compile check passed on
 * exactly that content for the offload arch, and every kernel check that
 * covers it passed on that content too. A check that could not run here
 * (no-device) is no pass. */
#ifndef HIPPORT_REVIEW_VALIDATE_H
#define HIPPORT_REVIEW_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "review/check_scope.h"
#include "review/session.h"

/* The name of the compile check in the session's check results. */
#define RV_COMPILE_CHECK "compile"

typedef struct rv_validation {
	bool committable;
	char why[512];        /* when not: what is missing and what to run */
	const rv_session_check *compile;   /* the passing compile check, when committable */
	const rv_session_check *kernels[64]; /* the passing kernel checks (at most 64 listed) */
	size_t nkernels;
} rv_validation;

/* Validates the file at path of the session (rec, NULL when the session
 * does not know it), with pending hunks left, whose working-tree content
 * is now's port, for the offload arch (NULL when none is known: then
 * the arch its compile check ran for stands);
 * needs_compile: hipcc can check it (not a Triton or build file, which the
 * decisions alone validate); specs: the names of the kernel checks whose
 * source it is. */
void rv_validate(rv_validation *out, const rv_session *s, const rv_session_file *rec, const char *path,
		 size_t pending, bool stale, const rv_check_content *now, const char *arch, bool needs_compile,
		 const char *const *specs, size_t nspecs);

/* Whether the checks the session holds for path that hold for now all
 * passed, a compile check of exactly now's port among them (the review's
 * glyph; a commit also asks for every kernel check that covers the file). */
bool rv_checks_passed(const rv_session *s, const char *path, const rv_check_content *now);

#endif
