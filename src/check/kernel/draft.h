/* Drafting kernel check specs from the source: libclang finds each
 * __global__ function (parsed without a CUDA SDK, as the analyzer does) and
 * a spec is guessed from its signature and body (docs/checks.md). */
#ifndef HIPPORT_CHECK_DRAFT_H
#define HIPPORT_CHECK_DRAFT_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/compile_db.h"
#include "check/kernel/spec.h"

/* Drafts one spec per kernel defined in src (the text of fs_path; path is
 * its name relative to the work tree). *out is an array of *n specs (each
 * disposed with chk_spec_dispose, the array freed); none is not an error. */
int chk_draft(chk_spec **out, size_t *n, const char *path, const char *fs_path, const char *src, size_t len,
	      const an_compile_db *db);

struct chk_recording;

typedef struct chk_draft_options {
	const an_compile_db *db;          /* the file's flags, or NULL */
	const struct chk_recording *rec;  /* the kernels it launched get their recorded launches
					   * (check/kernel/draft_record.h), or NULL */
	const char *root;                 /* the work tree, ending in '/' */
	const char *includes;             /* without db: directories of root the harness's build
					   * gives -I (check.includes), space separated, or NULL */
	bool *unread;                     /* set to whether the file spells __global__ more often
					   * than the parse read kernels (a declaration it could not
					   * read took them with it), or NULL */
} chk_draft_options;

/* chk_draft with options. The file is parsed as the harness is built:
 * -I root and each of includes, so that the names of the project's headers
 * are known. Specs with recorded inputs are written with chk_draft_write. */
int chk_draft_with(chk_spec **out, size_t *n, const char *path, const char *fs_path, const char *src, size_t len,
		   const chk_draft_options *options);

/* The name of a kernel's check: the file's path without its extension,
 * slashes made dashes, and the kernel's name ("src-main.softMax"); a kernel
 * launched in several distinct ways gets one per launch, with a suffix. */
char *chk_check_name(const char *path, const char *kernel);

/* Where spec goes under root (ending in '/'): .hipport/checks/NAME.check,
 * renamed NAME-2, NAME-3, ... while a spec of another source or kernel
 * holds the name. Returns 1 when the file holds this kernel's spec already
 * (kept, never overwritten), 0 when path is free. */
int chk_draft_place(util_buf *path, const char *root, chk_spec *spec);

#endif
